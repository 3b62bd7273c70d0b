import type { TWorkspace, TWorkspaceMember, TWorkspaceRole } from "@cohort/contracts";
import { useId, useState } from "react";
import { Badge } from "../../components/badge";
import { Button } from "../../components/button";
import { inputClasses } from "../../components/form";
import { assignableRoles, canRemoveMember } from "./member-permissions";
import { TeamPanelRead } from "./team-panel-read";
import { useWorkspaceAction } from "./use-workspace-action";
import { ROLE_LABELS } from "./workspace-labels";
import { changeMemberRole, removeMember, useMembers } from "./workspaces-api";

function MemberRow({
  workspace,
  member,
  isMe,
}: {
  workspace: TWorkspace;
  member: TWorkspaceMember;
  isMe: boolean;
}) {
  const selectId = useId();
  const { run, busy } = useWorkspaceAction();
  const roles = isMe ? [] : assignableRoles(workspace.role, member.role);
  const removable = !isMe && canRemoveMember(workspace.role, member.role);
  const name = member.display_name || member.email;

  const changeRole = (role: TWorkspaceRole) =>
    run(
      "role",
      () => changeMemberRole(workspace.id, member.user_id, role),
      `${name} is now ${ROLE_LABELS[role].toLowerCase()}.`,
      "The role could not be changed.",
    );
  const [confirming, setConfirming] = useState(false);
  const remove = () => {
    setConfirming(false);
    void run(
      "remove",
      () => removeMember(workspace.id, member.user_id),
      `${name} was removed.`,
      "The member could not be removed.",
    );
  };

  return (
    <li
      className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between"
      data-testid="workspace-member"
    >
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 text-sm font-semibold text-ink-950">
          <span className="truncate">{name}</span>
          {isMe ? <Badge tone="neutral">You</Badge> : null}
        </p>
        <p className="truncate text-xs text-ink-500">{member.email}</p>
      </div>
      <div className="flex items-center gap-2">
        {roles.length > 0 ? (
          <>
            <label htmlFor={selectId} className="sr-only">
              Role of {name}
            </label>
            <select
              id={selectId}
              className={`${inputClasses} w-32 py-1.5`}
              value={member.role}
              disabled={busy !== null}
              onChange={(event) => void changeRole(event.target.value as TWorkspaceRole)}
            >
              {roles.map((role) => (
                <option key={role} value={role}>
                  {ROLE_LABELS[role]}
                </option>
              ))}
            </select>
          </>
        ) : (
          <Badge tone={member.role === "owner" ? "brand" : "neutral"}>
            {ROLE_LABELS[member.role]}
          </Badge>
        )}
        {removable && confirming ? (
          <>
            <Button
              size="sm"
              onClick={remove}
              className="bg-red-600 hover:bg-red-700"
              aria-label={`Confirm removing ${name}`}
            >
              Confirm
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </>
        ) : removable ? (
          <Button
            variant="outline"
            size="sm"
            onClick={() => setConfirming(true)}
            disabled={busy !== null}
            aria-label={`Remove ${name}`}
          >
            {busy === "remove" ? "Removing…" : "Remove"}
          </Button>
        ) : null}
      </div>
    </li>
  );
}

/** The team's members with their roles; role select and Remove where the caller's role allows. */
export function MembersList({ workspace, myId }: { workspace: TWorkspace; myId: string }) {
  const members = useMembers(workspace.id);
  return (
    <section aria-labelledby="workspace-members-title" className="grid gap-2">
      <h2 id="workspace-members-title" className="text-base font-semibold text-ink-950">
        Members
      </h2>
      <TeamPanelRead read={members} what="the members">
        {(list) => (
          <ul className="divide-y divide-ink-100" data-testid="workspace-members">
            {list.map((member) => (
              <MemberRow
                key={member.user_id}
                workspace={workspace}
                member={member}
                isMe={member.user_id === myId}
              />
            ))}
          </ul>
        )}
      </TeamPanelRead>
    </section>
  );
}
