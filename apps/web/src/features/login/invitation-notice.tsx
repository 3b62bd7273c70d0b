import { type TInvitationPublicPreview, WORKSPACE_ROUTES } from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import { returnPathFrom } from "../../auth/return-path";
import { api } from "../../lib/api/api";
import { INVITE_PARAM } from "../workspaces/invitation-dialog";

/** The invitation token of the page that sent a signed-out visitor here, if any. */
export function invitationTokenFrom(state: unknown): string | null {
  const from = returnPathFrom(state);
  const query = from.indexOf("?");
  if (query < 0) return null;
  return new URLSearchParams(from.slice(query + 1)).get(INVITE_PARAM);
}

/** The signed-out preview of an invitation link (decision 057); null data when it is not valid. */
export function useInvitationPreview(token: string | null) {
  return useQuery({
    queryKey: ["invitation-public", token],
    enabled: token !== null,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: ({ signal }) =>
      api.get<TInvitationPublicPreview>(
        // The api client prefixes /api itself.
        WORKSPACE_ROUTES.publicInvitationPreview(token ?? "").replace(/^\/api/, ""),
        { signal },
      ),
  });
}

/** "Ada Admin invited max@example.com to the Acme Research workspace." on the sign-up form. */
export function InvitationNotice({ preview }: { preview: TInvitationPublicPreview }) {
  return (
    <div
      className="mt-6 rounded-xl border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-brand-950"
      data-testid="invitation-notice"
    >
      <p className="font-semibold">
        {preview.invited_by ?? "A member"} invited {preview.email} to the {preview.workspace_name}{" "}
        workspace.
      </p>
      <p className="mt-1 text-brand-900">
        Create your account with this address to join, or sign in if you already have one. You
        accept the invitation once your address is confirmed.
      </p>
    </div>
  );
}
