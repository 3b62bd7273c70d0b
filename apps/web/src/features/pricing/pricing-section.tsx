import { formatCredits, formatUsd, PLANS, type TPlan } from "@cohort/contracts";
import { Badge } from "../../components/badge";
import { Button, ButtonLink } from "../../components/button";
import { Card } from "../../components/card";
import { cn } from "../../components/cn";
import { Container } from "../../components/container";
import { SectionHeading } from "../../components/marketing/section-heading";

const CTA_TARGETS: Partial<Record<TPlan["tier"], string>> = {
  starter: "/login",
  enterprise: "/contact",
};

/** schema.org offers for every plan, the Enterprise plan included (spec §9). */
function structuredData(): string {
  return JSON.stringify({
    "@context": "https://schema.org",
    "@type": "Product",
    name: "Cohort",
    description: "Multi-agent AI collaboration and chat platform.",
    offers: PLANS.map((plan) => ({
      "@type": "Offer",
      name: plan.name,
      price: plan.priceUsdMonthly.toFixed(2),
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

function Price({ plan, large = true }: { plan: TPlan; large?: boolean }) {
  return (
    <p className="flex items-baseline gap-1">
      <span
        className={cn("font-bold tracking-tight text-ink-950", large ? "text-4xl" : "text-2xl")}
      >
        {formatUsd(plan.priceUsdMonthly)}
      </span>
      <span className="text-sm font-medium text-ink-600">/month</span>
    </p>
  );
}

function CheckIcon() {
  return (
    <svg viewBox="0 0 20 20" aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-600">
      <path
        d="M5 10.5l3.2 3.2L15 7"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function PlanCard({ plan }: { plan: TPlan }) {
  const titleId = `plan-${plan.tier.replace("+", "-plus")}`;
  return (
    <Card
      tone={plan.highlighted ? "raised" : "default"}
      className="flex flex-col p-6 sm:p-8"
      role="group"
      aria-labelledby={titleId}
      data-testid={`plan-${plan.name}`}
    >
      <div className="flex items-center justify-between gap-3">
        <h3 id={titleId} className="text-lg font-semibold text-ink-950">
          {plan.name}
        </h3>
        {plan.badge ? <Badge tone="brand">{plan.badge}</Badge> : null}
      </div>
      <div className="mt-5">
        <Price plan={plan} />
        <p className="mt-2 text-base font-semibold text-brand-700">
          {formatCredits(plan.monthlyCredits)} credits
        </p>
      </div>
      <ul className="mt-6 flex-1 space-y-3 text-sm text-ink-700">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-3">
            <CheckIcon />
            <span>{feature}</span>
          </li>
        ))}
      </ul>
      <div className="mt-8">
        <PlanCta plan={plan} />
      </div>
    </Card>
  );
}

export interface PricingSectionProps {
  /** The landing page shows a section heading; the pricing page has its own h1. */
  headingLevel?: "section" | "none";
}

/** The plans of spec §9, rendered from contracts. The Enterprise plan gets a wide band. */
export function PricingSection({ headingLevel = "section" }: PricingSectionProps) {
  const individual = PLANS.filter((plan) => plan.tier !== "enterprise");
  const enterprise = PLANS.find((plan) => plan.tier === "enterprise");
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
        <div className={cn("grid gap-6 lg:grid-cols-3", headingLevel === "section" && "mt-14")}>
          {individual.map((plan) => (
            <PlanCard key={plan.tier} plan={plan} />
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
                <p className="mt-3 text-sm text-ink-600">
                  {enterprise.features.slice(1).join(" · ")}
                </p>
              </div>
              <div className="md:w-56">
                <PlanCta plan={enterprise} />
              </div>
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
