import {
  roleAtLeast,
  TOOL_POLICIES,
  TOOL_POLICY_LABELS,
  type TToolPolicy,
} from "@cohort/contracts";
import { SelectField } from "../../components/form";
import { useCurrentWorkspace } from "../workspaces/current-workspace";

const HINTS: Record<TToolPolicy, string> = {
  ask_all: "Every tool call waits for your approval in its lane.",
  ask_risky:
    "Lookups run at once; calls that change your data, reach outside Cohort or cost credits wait for your approval.",
  never_ask:
    "Tools run without asking. Calls that change or reach out after a step read outside text (a page, a tool's answer) still wait for approval.",
};

/**
 * The session's approval policy (decision 059). Running without asking is for owners and
 * admins of the workspace: others see it, disabled, with the reason.
 */
export function ApprovalPolicyField({
  value,
  onChange,
  current,
}: {
  value: TToolPolicy;
  onChange(policy: TToolPolicy): void;
  /** The session's policy as saved: a member keeps an admin's never_ask. */
  current?: TToolPolicy;
}) {
  const { workspace } = useCurrentWorkspace();
  const mayNeverAsk = !workspace || roleAtLeast(workspace.role, "admin") || current === "never_ask";
  return (
    <SelectField
      label="Tool approvals"
      hint={HINTS[value]}
      value={value}
      onChange={(event) => onChange(event.target.value as TToolPolicy)}
      data-testid="approval-policy"
    >
      {TOOL_POLICIES.map((policy) => (
        <option key={policy} value={policy} disabled={policy === "never_ask" && !mayNeverAsk}>
          {TOOL_POLICY_LABELS[policy]}
          {policy === "never_ask" && !mayNeverAsk ? " (owners and admins only)" : ""}
        </option>
      ))}
    </SelectField>
  );
}
