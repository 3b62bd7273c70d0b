import type { ReactNode } from "react";
import { Container } from "../../components/container";
import { PageHeader } from "../../components/marketing/page-header";
import { SITE } from "../../lib/site";

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

export interface LegalDocumentProps {
  title: string;
  lead: ReactNode;
  sections: readonly LegalSection[];
}

/** Privacy policy and terms share one shape: a dated header, a contents list, numbered sections. */
export function LegalDocument({ title, lead, sections }: LegalDocumentProps) {
  return (
    <>
      <PageHeader eyebrow={`Effective ${SITE.legalEffectiveDate}`} title={title} lead={lead} />
      <Container className="grid gap-12 py-14 lg:grid-cols-[16rem_1fr] lg:py-20">
        <nav aria-labelledby="contents-title" className="lg:sticky lg:top-24 lg:self-start">
          <h2 id="contents-title" className="text-sm font-semibold text-ink-900">
            Contents
          </h2>
          <ol className="mt-3 space-y-2 text-sm">
            {sections.map((section, index) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  className="text-ink-600 hover:text-brand-700 hover:underline"
                >
                  {index + 1}. {section.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        <div className="prose-cohort min-w-0 max-w-3xl">
          {sections.map((section, index) => (
            <section key={section.id} aria-labelledby={section.id}>
              <h2 id={section.id}>
                {index + 1}. {section.title}
              </h2>
              {section.body}
            </section>
          ))}
        </div>
      </Container>
    </>
  );
}
