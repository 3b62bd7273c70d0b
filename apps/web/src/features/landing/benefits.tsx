import { MarketingSection } from "../../components/marketing/marketing-section";
import { SectionHeading } from "../../components/marketing/section-heading";

interface Benefit {
  title: string;
  text: string;
  icon: string;
}

/** Each icon is one SVG path on a 24-unit grid, stroked in the brand colour. */
const BENEFITS: readonly Benefit[] = [
  {
    title: "Many models, one team",
    text: "GPT, Claude, Gemini and the native Co* models work on the same task, each in the role it handles best. No more pasting answers between browser tabs.",
    icon: "M8 7a3 3 0 1 0 0 .01M16 7a3 3 0 1 0 0 .01M12 15a3 3 0 1 0 0 .01M8 10l2.5 3M16 10l-2.5 3",
  },
  {
    title: "Live cost per agent",
    text: "Every agent's spend streams beside its output, in credits, while it works. You find out what a run cost during the run, not on next month's invoice.",
    icon: "M4 19h16M7 16V11M12 16V6M17 16v-3",
  },
  {
    title: "Budgets that hold",
    text: "Before each model call, Cohort reserves the most it could cost and settles on what it used. Parallel agents can't overdraw you: a balance never goes below zero.",
    icon: "M12 3l7 3v6c0 4.5-3 7.5-7 9-4-1.5-7-4.5-7-9V6l7-3zM9 12l2 2 4-4",
  },
  {
    title: "A plan you can see",
    text: "The coordinator writes down who does what, and in which order, before any agent starts. Prefer to choose the team yourself? Turn on manual agent selection.",
    icon: "M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01",
  },
  {
    title: "A critic loop you can measure",
    text: "The Critic scores every draft against your brief. Work below the bar gets one bounded revision round, and you see the score either way.",
    icon: "M12 4l2.4 4.9 5.4.8-3.9 3.8.9 5.4L12 16.4 7.2 18.9l.9-5.4L4.2 9.7l5.4-.8L12 4z",
  },
  {
    title: "Runs you can replay",
    text: "Plans, drafts, verdicts and answers are stored as events. Reload, lose your connection or rejoin on another device, and the session catches up with nothing missed.",
    icon: "M4 12a8 8 0 1 0 2.3-5.6M4 4v4h4M12 8v4l3 2",
  },
  {
    title: "Bring your own keys",
    text: "Add your OpenAI, Anthropic or Google key and calls on it cost no credits. Keys are encrypted at rest and never sent back to your browser.",
    icon: "M15 7a4 4 0 1 1-3.9 5H4v3h3v3h3v-3h1.1A4 4 0 0 1 15 7zm1 3h.01",
  },
  {
    title: "Team workspaces and export",
    text: "Share a workspace with your team, with one credit pool and a cap per member. Save a session's setup as a template, export any session as Markdown or PDF, and keep documents and memory beside your work.",
    icon: "M4 7l8-4 8 4-8 4-8-4zM4 12l8 4 8-4M4 17l8 4 8-4",
  },
];

export function Benefits() {
  return (
    <MarketingSection id="benefits-title" spacing="landing">
      <SectionHeading
        id="benefits-title"
        eyebrow="Why Cohort"
        title="The benefits of a team, without the meetings"
        lead="One model gives you one perspective. Cohort gives you a coordinated team — and shows you exactly what it's doing and what it costs."
      />
      <ul className="mt-14 grid gap-x-8 gap-y-10 sm:grid-cols-2 lg:grid-cols-4">
        {BENEFITS.map((benefit) => (
          <li key={benefit.title}>
            <span className="flex size-11 items-center justify-center rounded-xl bg-brand-50 ring-1 ring-brand-100">
              <svg viewBox="0 0 24 24" aria-hidden="true" className="size-6 text-brand-700">
                <path
                  d={benefit.icon}
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.75"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                />
              </svg>
            </span>
            <h3 className="mt-4 text-base font-semibold text-ink-950">{benefit.title}</h3>
            <p className="mt-2 text-sm leading-6 text-ink-600">{benefit.text}</p>
          </li>
        ))}
      </ul>
    </MarketingSection>
  );
}
