import { useAuth } from "../../auth/use-auth";
import { Container } from "../../components/container";
import { CtaBand } from "../../components/marketing/cta-band";
import { PageHeader } from "../../components/marketing/page-header";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { PricingFaq } from "./pricing-faq";
import { PricingSection } from "./pricing-section";
import { useSignedInOffers } from "./signed-in-plan-cta";

export function PricingPage() {
  useDocumentMeta({
    title: "Pricing",
    description:
      "Cohort plans: Free to start, Starter with 200 credits a month, Pro with 1,000 credits and CoChat Unlimited, Pro+ with 3,000 credits, and Enterprise with 20,000.",
  });
  const auth = useAuth();
  const offers = useSignedInOffers(auth);
  return (
    <>
      <PageHeader
        eyebrow="Pricing"
        title="Pay for the work, see every credit"
        lead={
          offers
            ? "You're signed in: every paid plan can be bought here or on Billing, through the same checkout. Credits arrive as soon as the payment goes through."
            : "Start free, then pick a monthly allowance of credits for hosted models. Watch each agent's spend live during a run, and switch to your own API keys whenever you like."
        }
      />
      <PricingSection headingLevel="none" withFreePlan offers={offers} />
      <Container size="prose" className="py-16 sm:py-20">
        <PricingFaq />
      </Container>
      <CtaBand />
    </>
  );
}
