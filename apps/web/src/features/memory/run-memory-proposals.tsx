import { hasMemoryAccess, type TMemory, type TRunStatus } from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { failureMessage } from "../../auth/account-api";
import { useAuth } from "../../auth/use-auth";
import { Badge } from "../../components/badge";
import { Button } from "../../components/button";
import { toast } from "../../components/toast/toast-store";
import {
  approveMemory,
  memoryKeys,
  refreshMemories,
  rejectMemory,
  useMemoryProposed,
  useRunProposals,
} from "./memory-api";
import { MemoryActions, MemoryRow } from "./memory-row";

const DECIDED: Record<
  Exclude<TMemory["status"], "proposed">,
  { label: string; tone: "success" | "neutral" }
> = {
  approved: { label: "Saved", tone: "success" },
  rejected: { label: "Rejected", tone: "neutral" },
};

/** One proposed line with Approve / Edit / Reject (and what was decided, once it was). */
export function MemoryProposal({ memory }: { memory: TMemory }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);

  const decide = async (action: () => Promise<TMemory>, done: string) => {
    setBusy(true);
    try {
      await action();
      setEditing(false);
      await refreshMemories(queryClient);
      toast({ title: done, variant: "success" });
    } catch (error) {
      toast({ title: failureMessage(error, "Could not save your choice."), variant: "error" });
    } finally {
      setBusy(false);
    }
  };

  const saveEdit = (text: string) => {
    void decide(() => approveMemory(memory.id, { text }), "Memory saved");
  };

  const decided = memory.status === "proposed" ? null : DECIDED[memory.status];
  return (
    <MemoryRow
      memory={memory}
      editing={editing}
      busy={busy}
      onSave={saveEdit}
      onCancel={() => setEditing(false)}
      className="py-2.5"
      testId="memory-proposal"
      status={memory.status}
    >
      <p
        className={
          memory.status === "rejected"
            ? "text-sm text-ink-500 line-through"
            : "text-sm text-ink-900"
        }
      >
        <span className="mr-2 text-xs font-semibold tracking-wide text-ink-500 uppercase">
          {memory.kind}
        </span>
        {memory.text}
      </p>
      {decided ? (
        <Badge tone={decided.tone} className="shrink-0 self-start">
          {decided.label}
        </Badge>
      ) : (
        <MemoryActions
          memory={memory}
          busy={busy}
          onEdit={() => setEditing(true)}
          drop={{
            label: "Reject",
            onClick: () => void decide(() => rejectMemory(memory.id), "Memory rejected"),
          }}
          before={
            <Button
              size="sm"
              variant="secondary"
              disabled={busy}
              onClick={() => void decide(() => approveMemory(memory.id), "Memory saved")}
              aria-label={`Approve: ${memory.text}`}
            >
              Approve
            </Button>
          }
        />
      )}
    </MemoryRow>
  );
}

/**
 * What the coordinator proposes to remember after a completed run (Pro+): each line with
 * Approve / Edit / Reject. Proposals arrive over the socket a moment after the answer, so
 * the list fills in without a reload; nothing is kept until the user approves it (unless
 * auto-save is on, and then the lines show as saved).
 */
export function RunMemoryProposals({ runId, status }: { runId: string; status: TRunStatus }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const enabled =
    status === "completed" && user !== null && hasMemoryAccess(user.subscription_tier);
  const proposals = useRunProposals(runId, enabled);
  useMemoryProposed((event) => {
    if (event.run_id === runId)
      void queryClient.invalidateQueries({ queryKey: memoryKeys.run(runId) });
  });
  const memories = proposals.data ?? [];
  if (!enabled || memories.length === 0) return null;
  const open = memories.filter((m) => m.status === "proposed").length;
  return (
    <section
      aria-labelledby={`memory-proposals-${runId}`}
      className="rounded-2xl border border-brand-100 bg-brand-50/40 px-4 py-3"
      data-testid="run-memory-proposals"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={`memory-proposals-${runId}`} className="text-sm font-semibold text-ink-950">
          Remember for next time?
        </h3>
        <Link to="/settings#memory" className="text-xs font-semibold text-brand-700 underline">
          Manage memory
        </Link>
      </div>
      <p className="mt-0.5 text-xs text-ink-600" aria-live="polite">
        {open > 0
          ? "The coordinator suggests keeping these. Nothing is saved until you approve it."
          : "Your choices are saved. Approved memories help plan your next tasks."}
      </p>
      <ul className="mt-1 divide-y divide-brand-100">
        {memories.map((memory) => (
          <MemoryProposal
            key={`${memory.id}:${memory.status}:${memory.updated_at}`}
            memory={memory}
          />
        ))}
      </ul>
    </section>
  );
}
