import type { TSubscriptionTier } from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import { fetchAuthProviders } from "../../auth/google-sign-in";
import { Button, ButtonLink } from "../../components/button";
import { PlanCard } from "../../components/plan-card";
import { formatCount, formatCredits } from "../../lib/format/numbers";

export const FREE_PLAN_TEXTS = {
  name: "Free",
  create: "Create free account",
  current: "Current plan",
  included: "Included in your plan",
} as const;

/**
 * What every new account is on (tier `free`): the welcome credits the server grants once
 * the address is confirmed (SIGNUP_CREDITS, told by /api/auth/providers), sessions with
 * every model, the user's own keys, and credit packs. No CoChat: that is Pro and up.
 */
export function FreePlanCard({ signedInTier }: { signedInTier: TSubscriptionTier | null }) {
  const providers = useQuery({
    queryKey: ["auth-providers"],
    queryFn: fetchAuthProviders,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const welcome = providers.data?.welcomeCredits ?? null;
  const creditsLine =
    welcome === null
      ? "Pay as you go"
      : welcome > 0
        ? formatCount(welcome, { one: "welcome credit", other: "welcome credits" })
        : "No credits included";
  const features = [
    ...(welcome ? [`${formatCredits(welcome)} once you confirm your email`] : []),
    "Multi-agent sessions with every model",
    "Your own API keys, at no credit cost",
    "Credit packs whenever you need more",
  ];
  return (
    <PlanCard
      plan={{
        key: "free",
        name: FREE_PLAN_TEXTS.name,
        priceCentsMonthly: 0,
        creditsLine,
        features,
      }}
      cta={<FreePlanCta signedInTier={signedInTier} />}
    />
  );
}

function FreePlanCta({ signedInTier }: { signedInTier: TSubscriptionTier | null }) {
  if (signedInTier === null) {
    return (
      <ButtonLink to="/login?mode=signup" size="lg" variant="outline" className="w-full">
        {FREE_PLAN_TEXTS.create}
      </ButtonLink>
    );
  }
  return (
    <Button variant="outline" size="lg" className="w-full" disabled>
      {signedInTier === "free" ? FREE_PLAN_TEXTS.current : FREE_PLAN_TEXTS.included}
    </Button>
  );
}
