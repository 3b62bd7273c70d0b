import { formatCredits, PLANS, type TPlan } from "@cohort/contracts";
import { Button, ButtonLink } from "../../components/button";
import { Card } from "../../components/card";
import { cn } from "../../components/cn";
import { Container } from "../../components/container";
import { SectionHeading } from "../../components/marketing/section-heading";
import { FeatureText, PlanCard, type PlanCardContent, Price } from "../../components/plan-card";
import { SIGN_UP_PATH } from "../../lib/site";
import { FreePlanCard } from "./free-plan-card";
import type { PlanOffers } from "./signed-in-plan-cta";

const CTA_TARGETS: Partial<Record<TPlan["tier"], string>> = {
  starter: SIGN_UP_PATH,
  enterprise: "/contact",
};

/** schema.org offers for every plan, the Enterprise plan included (the product limits). */
function structuredData(): string {
  return JSON.stringify({
    "@context": "https://schema.org",
    "@type": "Product",
    name: "Cohort",
    description: "Multi-agent AI collaboration and chat platform.",
    offers: PLANS.map((plan) => ({
      "@type": "Offer",
      name: plan.name,
      price: (plan.priceCentsMonthly / 100).toFixed(2),
      priceCurrency: "USD",
      description: `${formatCredits(plan.monthlyCredits)} credits per month`,
      availability: plan.available ? "https://schema.org/InStock" : "https://schema.org/PreOrder",
    })),
  });
}

function PlanCta({ plan }: { plan: TPlan }) {
  const to = CTA_TARGETS[plan.tier];
  if (!plan.available || !to) {
    return (
      <Button variant="outline" size="lg" className="w-full" disabled>
        {plan.cta}
      </Button>
    );
  }
  return (
    <ButtonLink
      to={to}
      size="lg"
      className="w-full"
      aria-label={`${plan.cta} with the ${plan.name} plan`}
    >
      {plan.cta}
    </ButtonLink>
  );
}

function contentOf(plan: TPlan): PlanCardContent {
  return {
    key: plan.tier.replace("+", "-plus"),
    name: plan.name,
    priceCentsMonthly: plan.priceCentsMonthly,
    creditsLine: `${formatCredits(plan.monthlyCredits)} credits`,
    features: plan.features,
    badge: plan.badge,
    highlighted: plan.highlighted,
  };
}

export interface PricingSectionProps {
  /** The landing page shows a section heading; the pricing page has its own h1. */
  headingLevel?: "section" | "none";
  /**
   * The pricing page: the Free plan a new account starts on comes first. The landing page
   * shows only the product limits' four plans.
   */
  withFreePlan?: boolean;
  /** A signed-in visitor's real plan buttons, in place of the public ones (decision 030). */
  offers?: PlanOffers | null;
}

/** The plans of the product limits, rendered from contracts. The Enterprise plan gets a wide band. */
export function PricingSection({
  headingLevel = "section",
  withFreePlan = false,
  offers = null,
}: PricingSectionProps) {
  const individual = PLANS.filter((plan) => plan.tier !== "enterprise");
  const enterprise = PLANS.find((plan) => plan.tier === "enterprise");
  const ctaOf = (plan: TPlan) => (offers ? offers.render(plan) : <PlanCta plan={plan} />);
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="bg-ink-50 py-20 sm:py-24">
      <Container>
        {headingLevel === "section" ? (
          <SectionHeading
            id="pricing-title"
            eyebrow="Pricing"
            title="Plans that show you what you spend"
            lead="Every plan comes with a monthly credit allowance. Credits pay for hosted model calls; calls on your own API keys cost none."
            align="center"
          />
        ) : (
          <h2 id="pricing-title" className="sr-only">
            Plans
          </h2>
        )}
        <div
          className={cn(
            "grid gap-6",
            withFreePlan ? "md:grid-cols-2 xl:grid-cols-4" : "lg:grid-cols-3",
            headingLevel === "section" && "mt-14",
          )}
        >
          {withFreePlan ? <FreePlanCard signedInTier={offers?.tier ?? null} /> : null}
          {individual.map((plan) => (
            <PlanCard key={plan.tier} plan={contentOf(plan)} cta={ctaOf(plan)} />
          ))}
        </div>
        {enterprise ? (
          <Card
            className="mt-6 p-6 sm:p-8"
            role="group"
            aria-labelledby="plan-enterprise"
            data-testid={`plan-${enterprise.name}`}
          >
            <div className="flex flex-col gap-6 md:flex-row md:items-center md:justify-between">
              <div className="max-w-xl">
                <h3 id="plan-enterprise" className="text-lg font-semibold text-ink-950">
                  {enterprise.name}
                </h3>
                <div className="mt-2 flex flex-wrap items-baseline gap-x-4 gap-y-1">
                  <Price plan={enterprise} large={false} />
                  <p className="font-semibold text-brand-700">
                    {formatCredits(enterprise.monthlyCredits)} credits
                  </p>
                </div>
                <ul className="mt-3 flex flex-wrap gap-x-2 gap-y-1 text-sm text-ink-600">
                  {enterprise.features.slice(1).map((feature, index) => (
                    <li key={feature}>
                      {index > 0 ? <span aria-hidden="true">· </span> : null}
                      <FeatureText feature={feature} />
                    </li>
                  ))}
                </ul>
              </div>
              <div className="md:w-56">{ctaOf(enterprise)}</div>
            </div>
          </Card>
        ) : null}
        <p className="mt-8 text-center text-sm text-ink-600">
          Prices in US dollars, billed monthly. Need more in a busy month? Credit packages can be
          bought at any time from Billing.
        </p>
        <script type="application/ld+json">{structuredData()}</script>
      </Container>
    </section>
  );
}
