import { COMPARED_MODELS, INDUSTRIES, PERSONAS } from "@cohort/contracts";
import { Link } from "react-router";
import { CtaBand } from "../../components/marketing/cta-band";
import {
  MarketingSection,
  MarketingSectionTitle,
} from "../../components/marketing/marketing-section";
import { PageHeader } from "../../components/marketing/page-header";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { COMPARE_CONTENT } from "../compare/compare-content";
import { PERSONA_CONTENT } from "../solutions/personas";
import { INDUSTRY_CONTENT } from "./industries";

export function UseCasesPage() {
  useDocumentMeta({
    title: "Use cases",
    description:
      "How teams in software, marketing, finance, healthcare, education and law use Cohort's coordinated AI agents.",
  });
  return (
    <>
      <PageHeader
        eyebrow="Use cases"
        title="One team of models, many kinds of work"
        lead="See how a coordinator, a Strategist, a Coder, a Designer and a Critic divide real work in your field — and what to try as your first message."
      />
      <MarketingSection id="industries-title">
        <MarketingSectionTitle id="industries-title">By industry</MarketingSectionTitle>
        <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {INDUSTRIES.map((slug) => {
            const content = INDUSTRY_CONTENT[slug];
            return (
              <li key={slug}>
                <Link
                  to={`/use-cases/${slug}`}
                  className="group block h-full rounded-2xl border border-ink-200 p-6 transition-colors hover:border-brand-300 hover:bg-brand-50/60"
                >
                  <h3 className="font-semibold text-ink-950 group-hover:text-brand-700">
                    {content.name}
                  </h3>
                  <p className="mt-2 text-sm leading-6 text-ink-600">{content.summary}</p>
                  <span className="mt-4 inline-block text-sm font-semibold text-brand-700">
                    Read the {content.name.toLowerCase()} use case <span aria-hidden="true">→</span>
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      </MarketingSection>
      <MarketingSection id="roles-title" tone="grey" className="grid gap-12 lg:grid-cols-2">
        <div>
          <MarketingSectionTitle id="roles-title">By role</MarketingSectionTitle>
          <ul className="mt-6 space-y-2">
            {PERSONAS.map((slug) => (
              <li key={slug}>
                <Link
                  to={`/solutions/${slug}`}
                  className="font-medium text-brand-700 underline-offset-2 hover:underline"
                >
                  Cohort for {PERSONA_CONTENT[slug].name.toLowerCase()}
                </Link>
                <span className="text-ink-600"> — {PERSONA_CONTENT[slug].summary}</span>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h2 className="text-2xl font-bold tracking-tight text-ink-950">
            Compared with one model
          </h2>
          <ul className="mt-6 space-y-2">
            {COMPARED_MODELS.map((slug) => (
              <li key={slug}>
                <Link
                  to={`/compare/${slug}`}
                  className="font-medium text-brand-700 underline-offset-2 hover:underline"
                >
                  Cohort vs. {COMPARE_CONTENT[slug].name} alone
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </MarketingSection>
      <CtaBand />
    </>
  );
}
