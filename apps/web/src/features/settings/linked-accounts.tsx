import {
  SIGN_IN_PROVIDER_LABELS,
  type TFirebaseClientConfig,
  type TIdentityListResponse,
  type TSignInProvider,
} from "@cohort/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { failureMessage } from "../../auth/account-api";
import { fetchAuthProviders } from "../../auth/google-sign-in";
import { Badge } from "../../components/badge";
import { Button } from "../../components/button";
import { ProviderIcon } from "../../components/provider-icon";
import { SectionCard, SectionLoadError, SectionLoading } from "../../components/section-header";
import { toast } from "../../components/toast/toast-store";
import { api } from "../../lib/api/api";

export const IDENTITIES_QUERY_KEY = ["auth", "identities"] as const;

export function listIdentities(signal?: AbortSignal): Promise<TIdentityListResponse> {
  return api.get<TIdentityListResponse>("/auth/identities", { signal });
}

function ProviderRow({
  provider,
  linked,
  firebase,
}: {
  provider: TSignInProvider;
  linked: TIdentityListResponse["identities"][number] | undefined;
  firebase: TFirebaseClientConfig | null;
}) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const name = SIGN_IN_PROVIDER_LABELS[provider];
  const canLink = !linked && firebase?.providers.includes(provider) === true;

  const link = async () => {
    if (!firebase) return;
    setPending(true);
    try {
      const popup = await import("../../auth/firebase-popup");
      let idToken: string;
      try {
        idToken = (await popup.signInWithPopup(firebase, provider)).idToken;
      } catch (error) {
        if (!popup.isPopupDismissed(error)) {
          const detail = popup.popupFailureDetail(error, provider);
          toast({
            title: `Could not link ${name}`,
            ...(detail ? { description: detail } : {}),
            variant: "error",
          });
        }
        return;
      }
      const identities = await api.post<TIdentityListResponse>("/auth/identities", { idToken });
      queryClient.setQueryData(IDENTITIES_QUERY_KEY, identities);
      toast({ title: `${name} sign-in linked`, variant: "success" });
    } catch (error) {
      toast({
        title: failureMessage(error, `Could not link ${name}. Please try again.`),
        variant: "error",
      });
    } finally {
      setPending(false);
    }
  };

  const unlink = async () => {
    setPending(true);
    try {
      await api.delete(`/auth/identities/${provider}`);
      toast({ title: `${name} sign-in removed`, variant: "success" });
      await queryClient.invalidateQueries({ queryKey: IDENTITIES_QUERY_KEY });
    } catch (error) {
      toast({
        title: failureMessage(error, `Could not remove ${name}. Please try again.`),
        variant: "error",
      });
    } finally {
      setPending(false);
    }
  };

  if (!linked && !canLink) return null;
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 items-center gap-3">
        <ProviderIcon provider={provider} />
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 text-sm font-semibold text-ink-950">
            {name}
            {linked ? <Badge tone="success">Linked</Badge> : null}
          </p>
          <p className="mt-1 truncate text-xs text-ink-500">
            {linked ? (linked.email ?? "Linked account") : `Sign in with ${name}`}
          </p>
        </div>
      </div>
      <Button
        variant="outline"
        size="sm"
        onClick={linked ? unlink : link}
        disabled={pending}
        aria-label={`${linked ? "Unlink" : "Link"} ${name}`}
      >
        {linked ? "Unlink" : "Link"}
      </Button>
    </li>
  );
}

/**
 * Settings: the provider accounts that sign in to this account (GET /api/auth/identities),
 * linked through the identity provider's popup and unlinked here. The server refuses to
 * remove the last way to sign in and says why.
 */
export function LinkedAccounts() {
  const identities = useQuery({
    queryKey: IDENTITIES_QUERY_KEY,
    queryFn: ({ signal }) => listIdentities(signal),
  });
  const providers = useQuery({
    queryKey: ["auth-providers"],
    queryFn: fetchAuthProviders,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const firebase = providers.data?.firebase ?? null;
  const shown = new Set<TSignInProvider>([
    ...(firebase?.providers ?? []),
    ...(identities.data?.identities.map((identity) => identity.provider) ?? []),
  ]);
  return (
    <SectionCard
      title="Linked sign-in accounts"
      lead={
        identities.data?.hasPassword
          ? "Besides your password, these accounts can sign you in."
          : "These accounts sign you in. Keep at least one, or set a password first."
      }
    >
      {identities.isPending || providers.isPending ? (
        <SectionLoading label="Loading your linked accounts…" />
      ) : identities.isError ? (
        <SectionLoadError>
          Could not load your linked accounts. Please reload the page.
        </SectionLoadError>
      ) : shown.size === 0 ? (
        <p className="mt-4 text-sm text-ink-600">No sign-in providers are set up on this server.</p>
      ) : (
        <ul className="mt-2 divide-y divide-ink-200" data-testid="linked-accounts">
          {[...shown].map((provider) => (
            <ProviderRow
              key={provider}
              provider={provider}
              linked={identities.data.identities.find((identity) => identity.provider === provider)}
              firebase={firebase}
            />
          ))}
        </ul>
      )}
    </SectionCard>
  );
}
