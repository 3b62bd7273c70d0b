import { INDUSTRIES } from "@cohort/contracts";
import { Link, useParams } from "react-router";
import { Container } from "../../components/container";
import { CardsSection } from "../../components/marketing/cards-section";
import { CautionNote } from "../../components/marketing/caution-note";
import { CtaBand } from "../../components/marketing/cta-band";
import { ExamplePrompt } from "../../components/marketing/example-prompt";
import { GetStartedButtons } from "../../components/marketing/get-started-buttons";
import {
  MarketingSection,
  MarketingSectionTitle,
} from "../../components/marketing/marketing-section";
import { PageHeader } from "../../components/marketing/page-header";
import { RoleGrid } from "../../components/marketing/role-grid";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { INDUSTRY_CONTENT, type TIndustry } from "./industries";

function isIndustry(value: string | undefined): value is TIndustry {
  return (INDUSTRIES as readonly string[]).includes(value ?? "");
}

/** /use-cases/:industry — the route table already sent unknown slugs to the 404 page. */
export function IndustryPage() {
  const { industry } = useParams();
  const slug: TIndustry = isIndustry(industry) ? industry : "software";
  const content = INDUSTRY_CONTENT[slug];
  useDocumentMeta({
    title: `${content.name} use cases`,
    description: content.summary,
  });

  return (
    <>
      <PageHeader eyebrow={`Use cases · ${content.name}`} title={content.title} lead={content.lead}>
        <GetStartedButtons to="/use-cases">All use cases</GetStartedButtons>
      </PageHeader>
      <CardsSection id="workflows-title" title="Where it helps" items={content.workflows} />
      <MarketingSection
        id="team-title"
        tone="grey"
        className="grid gap-10 lg:grid-cols-[1fr_1.2fr]"
      >
        <div>
          <MarketingSectionTitle id="team-title">
            How the team divides the work
          </MarketingSectionTitle>
          <p className="mt-3 text-ink-600">
            The coordinator decides who is needed for each task. For {content.name.toLowerCase()}{" "}
            work, this is what each role usually contributes.
          </p>
          <div className="mt-8">
            <ExamplePrompt prompt={content.examplePrompt} />
          </div>
        </div>
        <RoleGrid roles={content.roles} />
      </MarketingSection>
      {content.caution ? (
        <Container className="pt-12">
          <CautionNote>{content.caution}</CautionNote>
        </Container>
      ) : null}
      <Container className="pt-12 text-sm text-ink-600">
        <p>
          Other fields:{" "}
          {INDUSTRIES.filter((other) => other !== slug).map((other, index, list) => (
            <span key={other}>
              <Link
                to={`/use-cases/${other}`}
                className="font-medium text-brand-700 hover:underline"
              >
                {INDUSTRY_CONTENT[other].name}
              </Link>
              {index < list.length - 1 ? ", " : "."}
            </span>
          ))}
        </p>
      </Container>
      <CtaBand />
    </>
  );
}
