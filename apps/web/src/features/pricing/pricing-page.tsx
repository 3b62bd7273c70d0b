import { Container } from "../../components/container";
import { CtaBand } from "../../components/marketing/cta-band";
import { PageHeader } from "../../components/marketing/page-header";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { PricingFaq } from "./pricing-faq";
import { PricingSection } from "./pricing-section";

export function PricingPage() {
  useDocumentMeta({
    title: "Pricing",
    description:
      "Cohort plans from $9.99 a month: Starter with 200 credits, Pro with 1,000 credits and CoChat Unlimited, Pro+ with 3,000 credits, workspace saving and memory.",
  });
  return (
    <>
      <PageHeader
        eyebrow="Pricing"
        title="Pay for the work, see every credit"
        lead="Pick a monthly allowance of credits for hosted models. Watch each agent's spend live during a run, and switch to your own API keys whenever you like."
      />
      <PricingSection headingLevel="none" />
      <Container size="prose" className="py-16 sm:py-20">
        <PricingFaq />
      </Container>
      <CtaBand />
    </>
  );
}
