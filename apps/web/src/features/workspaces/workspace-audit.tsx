import type { TWorkspace, TWorkspaceAuditEntry, TWorkspaceRole } from "@cohort/contracts";
import { formatDateTime } from "../../lib/format/dates";
import { formatCreditAmount } from "../../lib/format/numbers";
import { TeamPanelList } from "./team-panel-read";
import { useAuditLog, useMembers } from "./workspaces-api";

/** "member.role_changed" → "Member role changed": an action code nobody taught us to say. */
export function describeAction(action: string): string {
  const words = action.replace(/[._]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const ROLE_WITH_ARTICLE: Record<TWorkspaceRole, string> = {
  owner: "an owner",
  admin: "an admin",
  member: "a member",
  viewer: "a viewer",
};

function roleWords(value: unknown): string | null {
  return typeof value === "string" && value in ROLE_WITH_ARTICLE
    ? ROLE_WITH_ARTICLE[value as TWorkspaceRole]
    : null;
}

function roleName(value: unknown): string {
  return typeof value === "string" ? value : "another role";
}

function creditsWords(value: unknown): string {
  const amount = typeof value === "number" ? value : Number(value);
  if (!Number.isFinite(amount)) return "credits";
  return `${formatCreditAmount(amount)} ${amount === 1 ? "credit" : "credits"}`;
}

const possessive = (name: string) => (name.endsWith("s") ? `${name}'` : `${name}'s`);

/** Who did it: their name, "A deleted member" for a deleted account, Cohort for the system. */
export function actorOf(entry: Pick<TWorkspaceAuditEntry, "actor_id" | "actor_name">): string {
  if (entry.actor_name) return entry.actor_name;
  return entry.actor_id === null ? "Cohort" : "A deleted member";
}

/**
 * An audit entry as a sentence (decision 057): "Alice added 500 credits to the pool (checkout
 * ending 4F2A)", "Alice set Bob's monthly cap to 10 credits". `nameOf` turns a member's id
 * into their name; an action this screen does not know reads as its code in words.
 */
export function describeEntry(
  entry: Pick<TWorkspaceAuditEntry, "actor_id" | "actor_name" | "action" | "target" | "details">,
  nameOf: (target: string) => string = (target) => target,
): string {
  const actor = actorOf(entry);
  const target = entry.target ? nameOf(entry.target) : "";
  const { details } = entry;
  const as = roleWords(details.role);
  switch (entry.action) {
    case "workspace.created":
      return typeof details.name === "string"
        ? `${actor} created the workspace "${details.name}"`
        : `${actor} created the workspace`;
    case "workspace.renamed":
      return `${actor} renamed the workspace from "${String(details.from)}" to "${String(details.to)}"`;
    case "invitation.created":
      return `${actor} invited ${target}${as ? ` as ${as}` : ""}`;
    case "invitation.revoked":
      return `${actor} withdrew the invitation to ${target}`;
    case "invitation.accepted":
      return `${actor} accepted the invitation sent to ${target}`;
    case "member.joined":
      return `${target} joined${as ? ` as ${as}` : ""}`;
    case "member.left":
      return details.reason === "account_deleted" || details.account_deleted === true
        ? `${target} left the workspace (account deleted)`
        : `${target} left the workspace`;
    case "member.removed":
      return `${actor} removed ${target}${as ? `, ${as},` : ""} from the workspace`;
    case "member.role_changed":
      return `${actor} changed ${possessive(target)} role from ${roleName(details.from)} to ${roleName(details.to)}`;
    case "member.cap_changed":
      return details.to === null || details.to === undefined
        ? `${actor} removed ${possessive(target)} monthly cap`
        : `${actor} set ${possessive(target)} monthly cap to ${creditsWords(details.to)}`;
    case "credits.purchased": {
      const checkout = typeof details.checkout_id === "string" ? details.checkout_id : "";
      const ending = checkout.replace(/[^0-9a-z]/gi, "").slice(-4);
      return `${actor} added ${creditsWords(details.credits)} to the pool${ending ? ` (checkout ending ${ending.toUpperCase()})` : ""}`;
    }
    case "mcp_server.added":
      return `${actor} connected the MCP server "${String(details.name)}" (${String(details.url)})`;
    case "mcp_server.removed":
      return `${actor} removed the MCP server "${String(details.name)}"`;
    default:
      return `${actor}: ${describeAction(entry.action).toLowerCase()}${target ? ` (${target})` : ""}`;
  }
}

/** Every membership and credit change in the workspace, newest first (admins and owners). */
export function WorkspaceAudit({ workspace }: { workspace: TWorkspace }) {
  const audit = useAuditLog(workspace.id, true);
  // A member's id as the target reads better as their name; a former member's id stays an
  // id the screen cannot name.
  const members = useMembers(workspace.id);
  const nameOf = (target: string) => {
    const member = members.data?.find((m) => m.user_id === target);
    if (member) return member.display_name || member.email;
    return /^[0-9a-f-]{36}$/i.test(target) ? "A former member" : target;
  };
  return (
    <section aria-labelledby="workspace-audit-title" className="grid gap-2">
      <h2 id="workspace-audit-title" className="text-base font-semibold text-ink-950">
        Audit log
      </h2>
      <p className="text-sm text-ink-600">
        Every change to the members, their roles and caps, and the pool, newest first.
      </p>
      <TeamPanelList
        read={audit}
        what="the audit log"
        items={(data) => data.entries}
        empty="Nothing recorded yet."
      >
        {(entries) => (
          <ol className="divide-y divide-ink-100" data-testid="workspace-audit">
            {entries.map((entry) => (
              <li key={entry.id} className="py-2.5 text-sm" data-testid="audit-entry">
                <p className="text-ink-900" data-testid="audit-sentence">
                  {describeEntry(entry, nameOf)}
                </p>
                <p className="text-xs text-ink-500">
                  <time dateTime={entry.created_at}>{formatDateTime(entry.created_at)}</time>
                </p>
              </li>
            ))}
          </ol>
        )}
      </TeamPanelList>
    </section>
  );
}
