import { WORKSPACE_MESSAGES } from "@cohort/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { failureMessage } from "../../auth/account-api";
import { useAuth } from "../../auth/use-auth";
import { Button } from "../../components/button";
import { DialogFrame } from "../../components/dialog-frame";
import { FormMessage } from "../../components/form";
import { Spinner } from "../../components/spinner";
import { toast } from "../../components/toast/toast-store";
import { useCurrentWorkspace } from "./current-workspace";
import { ROLE_LABELS } from "./workspace-labels";
import { acceptInvitation, fetchInvitationPreview, workspaceKeys } from "./workspaces-api";

export const INVITE_PARAM = "invite";
const PREVIEW_FAILED = "This invitation could not be opened. Please try again.";

/**
 * The mailed invitation link lands on /dashboard?invite=<token> (decision 040): "Join <team>
 * as <role>?" with Accept and Decline. What the server refuses (expired, used, meant for
 * another address) is shown in its own words. Declining only closes: the link stays valid
 * until it expires, in case it was a slip.
 */
export function InvitationDialog() {
  const [search, setSearch] = useSearchParams();
  const token = search.get(INVITE_PARAM);
  if (!token) return null;
  const close = () => {
    const next = new URLSearchParams(search);
    next.delete(INVITE_PARAM);
    setSearch(next, { replace: true });
  };
  return <InvitationPrompt key={token} token={token} onClose={close} />;
}

function InvitationPrompt({ token, onClose }: { token: string; onClose(): void }) {
  const queryClient = useQueryClient();
  const { switchTo } = useCurrentWorkspace();
  const { user } = useAuth();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const preview = useQuery({
    queryKey: workspaceKeys.invitation(token),
    queryFn: ({ signal }) => fetchInvitationPreview(token, signal),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

  const accept = async () => {
    setBusy(true);
    setError(null);
    try {
      const workspace = await acceptInvitation(token);
      await queryClient.invalidateQueries({ queryKey: workspaceKeys.list });
      switchTo(workspace.id);
      toast({ title: `You joined ${workspace.name}.`, variant: "success" });
      onClose();
    } catch (cause) {
      setError(failureMessage(cause, PREVIEW_FAILED));
      setBusy(false);
    }
  };

  const invitation = preview.data;
  // Only a confirmed address may accept (decision 057): said before the click, not after.
  const unconfirmed =
    invitation && user && !user.emailVerified
      ? WORKSPACE_MESSAGES.invitationUnverified(invitation.email)
      : null;
  const shownError =
    error ?? (preview.isError ? failureMessage(preview.error, PREVIEW_FAILED) : null);
  const title = invitation
    ? `Join ${invitation.workspace_name} as ${ROLE_LABELS[invitation.role].toLowerCase()}?`
    : "Workspace invitation";

  return (
    <DialogFrame
      open
      onOpenChange={(open) => {
        if (!open && !busy) onClose();
      }}
      title={title}
      testId="invitation-dialog"
    >
      <div className="grid gap-4 p-5 sm:p-6">
        {preview.isPending ? (
          <div className="flex justify-center py-4">
            <Spinner label="Opening the invitation" />
          </div>
        ) : null}
        {invitation ? (
          <p className="text-sm text-ink-700">
            {invitation.invited_by ?? "A member"} invited {invitation.email} to the team workspace{" "}
            <strong className="font-semibold text-ink-950">{invitation.workspace_name}</strong>. Its
            sessions, documents and templates are shared, and its runs are paid from the team's
            credit pool.
          </p>
        ) : null}
        {unconfirmed && !shownError ? (
          <p
            className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
            data-testid="invitation-unconfirmed"
          >
            {unconfirmed}
          </p>
        ) : null}
        <FormMessage>{shownError}</FormMessage>
        <div className="flex justify-end gap-2">
          {invitation && !error && !unconfirmed ? (
            <>
              <Button variant="outline" onClick={onClose} disabled={busy}>
                Decline
              </Button>
              <Button onClick={accept} disabled={busy} aria-busy={busy || undefined}>
                {busy ? "Joining…" : "Accept"}
              </Button>
            </>
          ) : (
            <Button variant="outline" onClick={onClose}>
              Close
            </Button>
          )}
        </div>
      </div>
    </DialogFrame>
  );
}
