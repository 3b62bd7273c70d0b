import type { TWorkspace, TWorkspaceMemberUsage } from "@cohort/contracts";
import { type FormEvent, useId, useState } from "react";
import { Button } from "../../components/button";
import { DataTable } from "../../components/data-table";
import { inputClasses } from "../../components/form";
import { formatCreditAmount } from "../../lib/format/numbers";
import { TeamPanelRead } from "./team-panel-read";
import { useWorkspaceAction } from "./use-workspace-action";
import { ROLE_LABELS } from "./workspace-labels";
import { setMemberCap, useWorkspaceUsage } from "./workspaces-api";

/** "" is no cap; anything else must be a non-negative amount (the server checks the range). */
export function parseCap(text: string): number | null | "invalid" {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const value = Number(trimmed);
  return Number.isFinite(value) && value >= 0 ? Math.round(value * 100) / 100 : "invalid";
}

function CapForm({ workspace, member }: { workspace: TWorkspace; member: TWorkspaceMemberUsage }) {
  const inputId = useId();
  const { run, busy } = useWorkspaceAction();
  const current = member.monthly_cap_credits;
  const [text, setText] = useState(current === null ? "" : String(current));
  const [error, setError] = useState<string | null>(null);
  const name = member.display_name || member.email;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const cap = parseCap(text);
    if (cap === "invalid") {
      setError("Give a number of credits, or leave it empty for no cap.");
      return;
    }
    setError(null);
    await run(
      "cap",
      () => setMemberCap(workspace.id, member.user_id, cap),
      cap === null
        ? `${name} has no monthly cap.`
        : `${name}'s monthly cap is ${formatCreditAmount(cap)} credits.`,
      "The cap could not be saved.",
    );
  };

  return (
    <form onSubmit={submit} className="flex items-center gap-1.5">
      <label htmlFor={inputId} className="sr-only">
        Monthly cap of {name} (credits; empty for no cap)
      </label>
      <input
        id={inputId}
        inputMode="decimal"
        className={`${inputClasses} w-24 py-1.5`}
        value={text}
        placeholder="No cap"
        onChange={(event) => setText(event.target.value)}
        aria-invalid={error ? true : undefined}
        title={error ?? undefined}
      />
      <Button type="submit" variant="outline" size="sm" disabled={busy !== null}>
        {busy ? "Saving…" : "Save"}
      </Button>
    </form>
  );
}

/**
 * Per-member use of the pool this month (UTC) and each member's monthly cap (admins): on the
 * team screen's Credits and caps tab the caps are edited, on its Usage tab only read.
 */
export function MemberUsage({
  workspace,
  editCaps = true,
}: {
  workspace: TWorkspace;
  editCaps?: boolean;
}) {
  const usage = useWorkspaceUsage(workspace.id, true);
  return (
    <section aria-labelledby="workspace-usage-title" className="grid gap-2">
      <h2 id="workspace-usage-title" className="text-base font-semibold text-ink-950">
        {editCaps ? "Monthly caps" : "Usage this month"}
        {usage.data ? ` (${usage.data.month})` : ""}
      </h2>
      <p className="text-sm text-ink-600">
        {editCaps
          ? "A member's runs stop once they have used their cap this month; leave it empty for no cap."
          : "What each member's runs used from the pool this month, and how many model calls they made."}
      </p>
      <TeamPanelRead read={usage} what="the usage">
        {(data) => (
          <DataTable
            testId="member-usage"
            columns={[
              "Member",
              { label: "Used", end: true },
              { label: "Calls", end: true },
              "Monthly cap",
            ]}
            className=""
          >
            {data.members.map((member) => (
              <tr key={member.user_id} data-testid="member-usage-row">
                <td className="py-2 pr-3">
                  <span className="block font-medium text-ink-900">
                    {member.display_name || member.email}
                  </span>
                  <span className="block text-xs text-ink-500">{ROLE_LABELS[member.role]}</span>
                </td>
                <td className="py-2 pr-3 text-right tabular-nums" data-testid="member-usage-spent">
                  {formatCreditAmount(member.spent_credits)}
                  {member.held_credits > 0 ? (
                    <span className="block text-xs text-ink-500">
                      +{formatCreditAmount(member.held_credits)} held
                    </span>
                  ) : null}
                </td>
                <td className="py-2 pr-3 text-right tabular-nums">{member.calls}</td>
                <td className="py-2">
                  {editCaps ? (
                    <CapForm
                      key={String(member.monthly_cap_credits)}
                      workspace={workspace}
                      member={member}
                    />
                  ) : member.monthly_cap_credits === null ? (
                    <span className="text-ink-500">No cap</span>
                  ) : (
                    <span className="tabular-nums">
                      {formatCreditAmount(member.monthly_cap_credits)} credits
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </TeamPanelRead>
    </section>
  );
}
