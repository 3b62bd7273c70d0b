import { PERSONAS } from "@cohort/contracts";
import { useParams } from "react-router";
import { CardsSection } from "../../components/marketing/cards-section";
import { CtaBand } from "../../components/marketing/cta-band";
import { ExamplePrompt } from "../../components/marketing/example-prompt";
import { GetStartedButtons } from "../../components/marketing/get-started-buttons";
import {
  MarketingSection,
  MarketingSectionTitle,
} from "../../components/marketing/marketing-section";
import { PageHeader } from "../../components/marketing/page-header";
import { RelatedLinks } from "../../components/marketing/related-links";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { PERSONA_CONTENT, type TPersona } from "./personas";

function isPersona(value: string | undefined): value is TPersona {
  return (PERSONAS as readonly string[]).includes(value ?? "");
}

/** /solutions/:persona — what Cohort does for one kind of user. */
export function PersonaPage() {
  const { persona } = useParams();
  const slug: TPersona = isPersona(persona) ? persona : "developers";
  const content = PERSONA_CONTENT[slug];
  useDocumentMeta({
    title: `Solutions for ${content.name.toLowerCase()}`,
    description: content.summary,
  });

  return (
    <>
      <PageHeader eyebrow={`Solutions · ${content.name}`} title={content.title} lead={content.lead}>
        <GetStartedButtons to="/pricing">See pricing</GetStartedButtons>
      </PageHeader>
      <CardsSection
        id="pains-title"
        title={`What changes for ${content.name.toLowerCase()}`}
        items={content.pains}
      />
      <MarketingSection id="gains-title" tone="grey" className="grid gap-10 lg:grid-cols-2">
        <div>
          <MarketingSectionTitle id="gains-title">What you get</MarketingSectionTitle>
          <ul className="mt-6 space-y-3 text-ink-700">
            {content.gains.map((gain) => (
              <li key={gain} className="flex gap-3">
                <span
                  aria-hidden="true"
                  className="mt-2.5 size-1.5 shrink-0 rounded-full bg-brand-500"
                />
                <span>{gain}</span>
              </li>
            ))}
          </ul>
          <p className="mt-6 text-sm text-ink-600">{content.planHint}</p>
        </div>
        <ExamplePrompt prompt={content.examplePrompt} />
      </MarketingSection>
      <RelatedLinks
        label="Cohort for:"
        links={PERSONAS.filter((other) => other !== slug).map((other) => ({
          to: `/solutions/${other}`,
          name: PERSONA_CONTENT[other].name,
        }))}
      />
      <CtaBand />
    </>
  );
}
