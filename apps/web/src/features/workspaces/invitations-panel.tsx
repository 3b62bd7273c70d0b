import {
  INVITABLE_ROLES,
  type TInvitableRole,
  type TWorkspace,
  type TWorkspaceInvitation,
} from "@cohort/contracts";
import { type FormEvent, useState } from "react";
import { Button } from "../../components/button";
import { Field, SelectField } from "../../components/form";
import { formatShortDate } from "../../lib/format/dates";
import { useWorkspaceAction } from "./use-workspace-action";
import { ROLE_LABELS } from "./workspace-labels";
import { inviteMember, revokeInvitation, useInvitations } from "./workspaces-api";

/** Only owners make admins (decision 040); an admin's invitation offers member and viewer. */
function invitableBy(role: TWorkspace["role"]): readonly TInvitableRole[] {
  return role === "owner" ? INVITABLE_ROLES : INVITABLE_ROLES.filter((r) => r !== "admin");
}

function InviteForm({ workspace }: { workspace: TWorkspace }) {
  const { run, busy } = useWorkspaceAction();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<TInvitableRole>("member");

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!address) return;
    const sent = await run(
      "invite",
      () => inviteMember(workspace.id, { email: address, role }),
      `Invitation sent to ${address}.`,
      "The invitation could not be sent.",
    );
    if (sent) setEmail("");
  };

  return (
    <form onSubmit={submit} className="grid gap-3 sm:grid-cols-[1fr_9rem_auto] sm:items-end">
      <Field
        label="Invite by email"
        type="email"
        autoComplete="off"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        placeholder="name@company.com"
        required
      />
      <SelectField
        label="Role"
        value={role}
        onChange={(event) => setRole(event.target.value as TInvitableRole)}
      >
        {invitableBy(workspace.role).map((option) => (
          <option key={option} value={option}>
            {ROLE_LABELS[option]}
          </option>
        ))}
      </SelectField>
      <Button type="submit" disabled={busy !== null} aria-busy={busy !== null || undefined}>
        {busy ? "Sending…" : "Send invitation"}
      </Button>
    </form>
  );
}

function InvitationRow({
  workspace,
  invitation,
}: {
  workspace: TWorkspace;
  invitation: TWorkspaceInvitation;
}) {
  const { run, busy } = useWorkspaceAction();
  return (
    <li className="flex items-center justify-between gap-3 py-2.5" data-testid="invitation-row">
      <div className="min-w-0">
        <p className="truncate text-sm font-medium text-ink-900">{invitation.email}</p>
        <p className="text-xs text-ink-500">
          {ROLE_LABELS[invitation.role]} · expires {formatShortDate(invitation.expires_at)}
          {invitation.invited_by ? ` · invited by ${invitation.invited_by}` : ""}
        </p>
      </div>
      <Button
        variant="outline"
        size="sm"
        disabled={busy !== null}
        aria-label={`Revoke the invitation to ${invitation.email}`}
        onClick={() =>
          void run(
            "revoke",
            () => revokeInvitation(workspace.id, invitation.id),
            `Invitation to ${invitation.email} revoked.`,
            "The invitation could not be revoked.",
          )
        }
      >
        Revoke
      </Button>
    </li>
  );
}

/** Invite by email (a signed, single-use link by mail) and the invitations still pending. */
export function InvitationsPanel({ workspace }: { workspace: TWorkspace }) {
  const invitations = useInvitations(workspace.id, true);
  const pending = invitations.data ?? [];
  return (
    <section aria-labelledby="workspace-invitations-title" className="grid gap-3">
      <h2 id="workspace-invitations-title" className="text-base font-semibold text-ink-950">
        Invitations
      </h2>
      <InviteForm workspace={workspace} />
      {pending.length > 0 ? (
        <ul className="divide-y divide-ink-100" data-testid="pending-invitations">
          {pending.map((invitation) => (
            <InvitationRow key={invitation.id} workspace={workspace} invitation={invitation} />
          ))}
        </ul>
      ) : invitations.isSuccess ? (
        <p className="text-xs text-ink-500">No invitations pending.</p>
      ) : null}
    </section>
  );
}
