import { COMPARED_MODELS } from "@cohort/contracts";
import { useParams } from "react-router";
import { ButtonLink } from "../../components/button";
import { CtaBand } from "../../components/marketing/cta-band";
import {
  MarketingSection,
  MarketingSectionTitle,
} from "../../components/marketing/marketing-section";
import { PageHeader } from "../../components/marketing/page-header";
import { RelatedLinks } from "../../components/marketing/related-links";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { SIGN_UP_PATH } from "../../lib/site";
import { COMPARE_CONTENT, comparisonRows, type TComparedModel } from "./compare-content";

function isComparedModel(value: string | undefined): value is TComparedModel {
  return (COMPARED_MODELS as readonly string[]).includes(value ?? "");
}

function CheckList({ items }: { items: readonly string[] }) {
  return (
    <ul className="mt-4 space-y-3 text-sm leading-6 text-ink-700">
      {items.map((item) => (
        <li key={item} className="flex gap-3">
          <span aria-hidden="true" className="mt-2 size-1.5 shrink-0 rounded-full bg-brand-500" />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}

/** /compare/:model — Cohort next to using one model family on its own. */
export function ComparePage() {
  const { model } = useParams();
  const slug: TComparedModel = isComparedModel(model) ? model : "gpt";
  const content = COMPARE_CONTENT[slug];
  useDocumentMeta({
    title: `Cohort vs. ${content.name} alone`,
    exactTitle: true,
    description: `When one ${content.name} chat is enough, and when a coordinated team of models — ${content.name} included — gives a better answer.`,
  });

  return (
    <>
      <PageHeader
        eyebrow="Compare"
        title={`Cohort vs. ${content.name} on its own`}
        lead={content.lead}
      >
        <ButtonLink to={SIGN_UP_PATH} size="lg">
          Get Started
        </ButtonLink>
      </PageHeader>
      <MarketingSection id="table-title">
        <MarketingSectionTitle id="table-title">Side by side</MarketingSectionTitle>
        <div className="mt-8 overflow-x-auto rounded-2xl border border-ink-200">
          <table className="w-full min-w-[36rem] text-left text-sm">
            <caption className="sr-only">
              {content.name} used alone compared with {content.name} inside a Cohort team
            </caption>
            <thead className="bg-ink-50">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold text-ink-900">
                  <span className="sr-only">Aspect</span>
                </th>
                <th scope="col" className="px-4 py-3 font-semibold text-ink-900">
                  {content.name} alone
                </th>
                <th scope="col" className="px-4 py-3 font-semibold text-brand-700">
                  Cohort
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-ink-100">
              {comparisonRows(content).map(([aspect, alone, cohort]) => (
                <tr key={aspect}>
                  <th scope="row" className="px-4 py-3 font-medium text-ink-900">
                    {aspect}
                  </th>
                  <td className="px-4 py-3 text-ink-600">{alone}</td>
                  <td className="px-4 py-3 text-ink-900">{cohort}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </MarketingSection>
      <MarketingSection id="choose-title" tone="grey">
        <MarketingSectionTitle id="choose-title">Which one to reach for</MarketingSectionTitle>
        <div className="mt-8 grid gap-6 md:grid-cols-2">
          <div className="rounded-2xl border border-ink-200 bg-white p-6">
            <h3 className="font-semibold text-ink-950">{content.name} on its own is enough for</h3>
            <CheckList items={content.aloneIsEnough} />
          </div>
          <div className="rounded-2xl border border-brand-200 bg-white p-6 ring-1 ring-brand-100">
            <h3 className="font-semibold text-ink-950">Cohort is the better fit for</h3>
            <CheckList items={content.cohortHelps} />
          </div>
        </div>
        <p className="mt-8 max-w-3xl text-ink-700">
          <strong className="font-semibold text-ink-950">{content.name} inside Cohort. </strong>
          {content.seat}
        </p>
      </MarketingSection>
      <RelatedLinks
        label="Also compare:"
        links={COMPARED_MODELS.filter((other) => other !== slug).map((other) => ({
          to: `/compare/${other}`,
          name: `Cohort vs. ${COMPARE_CONTENT[other].name}`,
        }))}
      />
      <CtaBand />
    </>
  );
}
