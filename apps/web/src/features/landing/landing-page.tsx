import { CtaBand } from "../../components/marketing/cta-band";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { PricingSection } from "../pricing/pricing-section";
import { Benefits } from "./benefits";
import { Hero } from "./hero";
import { HowItWorks } from "./how-it-works";
import { LandingFaq } from "./landing-faq";
import { ModelsAndRoles } from "./models-and-roles";
import { Testimonials } from "./testimonials";

export function LandingPage() {
  useDocumentMeta({ title: "Cohort — many models, one team", exactTitle: true });
  return (
    <>
      <Hero />
      <Benefits />
      <HowItWorks />
      <ModelsAndRoles />
      <Testimonials />
      <PricingSection />
      <LandingFaq />
      <CtaBand />
    </>
  );
}
