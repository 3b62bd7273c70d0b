import type { TSignInInfo } from "@cohort/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { failureMessage, listSignIns, revokeSignIn } from "../../auth/account-api";
import { setSignedOut } from "../../auth/auth-store";
import { LOGGED_OUT_MESSAGE } from "../../auth/use-sign-out";
import { Badge } from "../../components/badge";
import { Button } from "../../components/button";
import { SectionCard, SectionLoadError, SectionLoading } from "../../components/section-header";
import { toast } from "../../components/toast/toast-store";
import { api } from "../../lib/api/api";
import { formatDateTime } from "../../lib/format/dates";
import { describeUserAgent } from "../../lib/format/describe-user-agent";

const SIGN_INS_QUERY_KEY = ["auth", "sign-ins"] as const;

function SignInRow({ signIn }: { signIn: TSignInInfo }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const device = describeUserAgent(signIn.user_agent);

  const revoke = async () => {
    setPending(true);
    try {
      await revokeSignIn(signIn.id);
      if (signIn.current) {
        api.clearCsrfToken();
        setSignedOut();
        queryClient.clear();
        toast({ title: LOGGED_OUT_MESSAGE, variant: "success" });
        navigate("/login", { replace: true });
        return;
      }
      toast({ title: `Signed out ${device}`, variant: "success" });
      await queryClient.invalidateQueries({ queryKey: SIGN_INS_QUERY_KEY });
    } catch (error) {
      toast({
        title: failureMessage(error, "Could not sign out that device. Please try again."),
        variant: "error",
      });
    } finally {
      setPending(false);
    }
  };

  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 text-sm font-semibold text-ink-950">
          {device}
          {signIn.current ? <Badge tone="success">This device</Badge> : null}
        </p>
        <p className="mt-1 text-xs text-ink-500">
          {signIn.ip ? `${signIn.ip} · ` : ""}Signed in {formatDateTime(signIn.created_at)}
          {" · "}Last active {formatDateTime(signIn.last_used_at)}
        </p>
      </div>
      <Button
        variant="outline"
        size="sm"
        onClick={revoke}
        disabled={pending}
        aria-label={`Sign out ${device}${signIn.current ? " (this device)" : ""}`}
      >
        Sign out
      </Button>
    </li>
  );
}

/** Where the account is signed in, each with its own "Sign out" (DELETE /api/auth/sign-ins/:id). */
export function SignInsList() {
  const { data, isPending, isError } = useQuery({
    queryKey: SIGN_INS_QUERY_KEY,
    queryFn: ({ signal }) => listSignIns(signal),
  });
  return (
    <SectionCard
      title="Where you're signed in"
      lead="The browsers and apps signed in to your account. Sign out any you do not recognise."
    >
      {isPending ? (
        <SectionLoading label="Loading your signed-in devices…" />
      ) : isError ? (
        <SectionLoadError>
          Could not load where you are signed in. Please reload the page.
        </SectionLoadError>
      ) : (
        <ul className="mt-2 divide-y divide-ink-200" data-testid="sign-ins-list">
          {data.sign_ins.map((signIn) => (
            <SignInRow key={signIn.id} signIn={signIn} />
          ))}
        </ul>
      )}
    </SectionCard>
  );
}
