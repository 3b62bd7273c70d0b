import type { TUserProfile } from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import { fetchAuthProviders } from "./google-sign-in";

/**
 * The welcome credits this user will receive by verifying their email address: the server's
 * SIGNUP_CREDITS while the address is unverified, else 0 (decision 017).
 */
export function usePendingWelcomeCredits(user: TUserProfile | null): number {
  const unverified = user !== null && !user.emailVerified;
  const providers = useQuery({
    queryKey: ["auth-providers"],
    queryFn: fetchAuthProviders,
    enabled: unverified,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return unverified ? (providers.data?.welcomeCredits ?? 0) : 0;
}
