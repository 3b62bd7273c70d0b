import { MarketingSection } from "../../components/marketing/marketing-section";
import { SectionHeading } from "../../components/marketing/section-heading";

const STEPS = [
  {
    title: "You describe the task",
    text: "Write what you need in a session, as you would brief a colleague. Describe the session once; every agent sees that context.",
  },
  {
    title: "The coordinator plans",
    text: "A coordinator model decides which roles work on which part, in which order, and shows you that plan first.",
  },
  {
    title: "Agents work in parallel",
    text: "Independent parts run at the same time, each agent streaming on its own model with its cost ticking beside it.",
  },
  {
    title: "The Critic reviews, the coordinator answers",
    text: "Drafts are scored; weak ones get one revision. Then the coordinator streams a single, combined answer.",
  },
] as const;

export function HowItWorks() {
  return (
    <MarketingSection id="how-title" anchor="how-it-works" tone="grey" spacing="landing">
      <SectionHeading
        id="how-title"
        eyebrow="How a run works"
        title="From one message to one answer, in four visible steps"
      />
      <ol className="mt-14 grid gap-6 md:grid-cols-2 lg:grid-cols-4">
        {STEPS.map((step, index) => (
          <li key={step.title} className="relative rounded-2xl border border-ink-200 bg-white p-6">
            <span
              aria-hidden="true"
              className="flex size-8 items-center justify-center rounded-full bg-brand-600 text-sm font-bold text-white"
            >
              {index + 1}
            </span>
            <h3 className="mt-4 font-semibold text-ink-950">{step.title}</h3>
            <p className="mt-2 text-sm leading-6 text-ink-600">{step.text}</p>
          </li>
        ))}
      </ol>
      <p className="mt-8 text-sm text-ink-600">
        Press stop at any moment: every model call in the run is cancelled and its unused credits
        are released.
      </p>
    </MarketingSection>
  );
}
