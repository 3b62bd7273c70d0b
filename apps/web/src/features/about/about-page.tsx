import { NATIVE_MODELS } from "@cohort/contracts";
import { Container } from "../../components/container";
import { CtaBand } from "../../components/marketing/cta-band";
import { PageHeader } from "../../components/marketing/page-header";
import { SectionHeading } from "../../components/marketing/section-heading";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";

const PRINCIPLES = [
  {
    title: "Show the work",
    text: "A plan you can read before anything runs, every draft in the open, the Critic's score beside each one. If you can't see why an answer came out the way it did, you can't trust it.",
  },
  {
    title: "Spend honestly",
    text: "Credits are reserved before a call and settled on real usage. The cost of each agent is visible while it works, and your balance never goes negative — not even with four agents running at once.",
  },
  {
    title: "No single-model lock-in",
    text: "The best model for planning is rarely the best for code or for critique. Cohort lets you pick per role, switch when something better ships, and bring your own keys.",
  },
  {
    title: "Your work stays yours",
    text: "We don't train models on your content, we encrypt your provider keys, and we redact secrets from our logs before they are written.",
  },
] as const;

export function AboutPage() {
  useDocumentMeta({
    title: "About",
    description:
      "Why we built Cohort: better answers come from a coordinated team of models, with the plan, the drafts and the cost out in the open.",
  });
  return (
    <>
      <PageHeader
        eyebrow="About Cohort"
        title="Better answers come from more than one mind"
        lead="We built Cohort because the best work we saw from AI came from people juggling several models by hand — asking one to plan, another to write, a third to poke holes. Cohort makes that the default, and makes it visible."
      />
      <Container className="grid gap-12 py-16 sm:py-20 lg:grid-cols-2">
        <div className="prose-cohort">
          <h2>What we're building</h2>
          <p>
            Cohort is a real-time collaboration platform for AI models. You describe a task; a
            coordinator model writes a plan and hands its parts to four roles — a Strategist, a
            Coder, a Designer and a Critic. Each role runs on the model you choose for it, the
            independent parts run in parallel, and everything streams to your screen as it happens.
          </p>
          <p>
            Next to GPT, Claude and Gemini, Cohort ships {NATIVE_MODELS.length} native models —{" "}
            {NATIVE_MODELS.map((model) => model.name).join(", ")} — each tuned for one kind of work.
            When you just want to talk to one model, CoChat is there too.
          </p>
        </div>
        <div className="prose-cohort">
          <h2>Who it's for</h2>
          <p>
            Engineers who want a second opinion on a migration plan. Product teams who want a launch
            brief that has already been argued with. Researchers, designers and founders who would
            rather read one well-reviewed answer than merge five chat transcripts.
          </p>
          <p>
            And teams who need to know what AI costs them: every Cohort run shows the spend of each
            agent, live, in credits.
          </p>
        </div>
      </Container>
      <section
        aria-labelledby="principles-title"
        className="border-t border-ink-200 bg-ink-50 py-16 sm:py-20"
      >
        <Container>
          <SectionHeading
            id="principles-title"
            eyebrow="Principles"
            title="How we make decisions"
          />
          <ul className="mt-12 grid gap-6 sm:grid-cols-2">
            {PRINCIPLES.map((principle) => (
              <li key={principle.title} className="rounded-2xl border border-ink-200 bg-white p-6">
                <h3 className="font-semibold text-ink-950">{principle.title}</h3>
                <p className="mt-2 text-sm leading-6 text-ink-600">{principle.text}</p>
              </li>
            ))}
          </ul>
        </Container>
      </section>
      <CtaBand />
    </>
  );
}
