import type { TWorkspace, TWorkspaceAuditEntry } from "@cohort/contracts";
import { Spinner } from "../../components/spinner";
import { useAuditLog, useMembers } from "./workspaces-api";

const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });

/** "member.role_changed" → "Member role changed": the server's action codes, readable. */
export function describeAction(action: string): string {
  const words = action.replace(/[._]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The entry's details in one line ("role: viewer → member"); empty when there are none. */
export function describeDetails(details: TWorkspaceAuditEntry["details"]): string {
  return Object.entries(details)
    .map(
      ([key, value]) =>
        `${key.replace(/_/g, " ")}: ${typeof value === "object" ? JSON.stringify(value) : String(value)}`,
    )
    .join(" · ");
}

/** Every membership and credit change in the workspace, newest first (admins and owners). */
export function WorkspaceAudit({ workspace }: { workspace: TWorkspace }) {
  const audit = useAuditLog(workspace.id, true);
  // A member's id as the target reads better as their name (former members keep the id).
  const members = useMembers(workspace.id);
  const nameOf = (target: string) =>
    members.data?.find((member) => member.user_id === target)?.display_name || target;
  return (
    <section aria-labelledby="workspace-audit-title" className="grid gap-2">
      <h3 id="workspace-audit-title" className="text-sm font-semibold text-ink-900">
        Audit log
      </h3>
      {audit.isPending ? (
        <Spinner label="Loading the audit log" />
      ) : audit.isError ? (
        <p className="text-sm text-ink-600">The audit log could not be loaded just now.</p>
      ) : audit.data.entries.length === 0 ? (
        <p className="text-xs text-ink-500">Nothing recorded yet.</p>
      ) : (
        <ol
          className="max-h-80 divide-y divide-ink-100 overflow-y-auto"
          data-testid="workspace-audit"
        >
          {audit.data.entries.map((entry) => (
            <li key={entry.id} className="py-2 text-sm">
              <p className="text-ink-900">
                <span className="font-medium">{describeAction(entry.action)}</span>
                {entry.target ? (
                  <span className="text-ink-600"> · {nameOf(entry.target)}</span>
                ) : null}
              </p>
              <p className="text-xs text-ink-500">
                {dateTime.format(new Date(entry.created_at))} · {entry.actor_name ?? "System"}
                {Object.keys(entry.details).length > 0
                  ? ` · ${describeDetails(entry.details)}`
                  : ""}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
