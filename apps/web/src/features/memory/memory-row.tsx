import type { TMemory } from "@cohort/contracts";
import type { ReactNode } from "react";
import { Button } from "../../components/button";
import { cn } from "../../components/cn";
import { MemoryEditForm } from "./memory-edit-form";

/**
 * One memory line in a list, the Memory page's or a run's proposals: what `children` show,
 * or the edit form in their place while `editing`.
 */
export function MemoryRow({
  memory,
  editing,
  busy,
  onSave,
  onCancel,
  className,
  testId,
  status,
  children,
}: {
  memory: TMemory;
  editing: boolean;
  busy: boolean;
  onSave(text: string): void;
  onCancel(): void;
  className: string;
  testId: string;
  status?: TMemory["status"];
  children: ReactNode;
}) {
  return (
    <li
      className={cn("flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between", className)}
      data-testid={testId}
      data-status={status}
    >
      {editing ? (
        <MemoryEditForm initial={memory.text} busy={busy} onSave={onSave} onCancel={onCancel} />
      ) : (
        children
      )}
    </li>
  );
}

/**
 * A memory line's buttons, each named with the line it acts on: what comes `before` (Approve),
 * Edit, then the one that drops it (Delete, Reject).
 */
export function MemoryActions({
  memory,
  busy,
  onEdit,
  drop,
  before,
}: {
  memory: TMemory;
  busy: boolean;
  onEdit(): void;
  drop: { label: string; onClick(): void };
  before?: ReactNode;
}) {
  return (
    <div className="flex shrink-0 gap-1.5">
      {before}
      <Button
        size="sm"
        variant="outline"
        disabled={busy}
        onClick={onEdit}
        aria-label={`Edit: ${memory.text}`}
      >
        Edit
      </Button>
      <Button
        size="sm"
        variant="ghost"
        disabled={busy}
        onClick={drop.onClick}
        aria-label={`${drop.label}: ${memory.text}`}
      >
        {drop.label}
      </Button>
    </div>
  );
}
