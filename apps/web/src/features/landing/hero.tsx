import { formatCredits, formatUsd, PLANS } from "@cohort/contracts";
import { cn } from "../../components/cn";
import { Container } from "../../components/container";
import { GetStartedButtons } from "../../components/marketing/get-started-buttons";
import { ROLE_COPY } from "../../content/agent-roles";

interface PreviewAgent {
  role: string;
  model: string;
  status: "done" | "streaming" | "reviewing";
  text: string;
  credits: string;
}

/** An example run, drawn in HTML so it stays sharp, light and readable by screen readers. */
const PREVIEW_AGENTS: readonly PreviewAgent[] = [
  {
    role: "Strategist",
    model: "Claude",
    status: "done",
    text: "Lead with predictable spend: show the monthly cap before the per-call price.",
    credits: "4.2",
  },
  {
    role: "Coder",
    model: "GPT",
    status: "streaming",
    text: "Building the estimate widget: usage × rate, rounded up to whole credits…",
    credits: "6.8",
  },
  {
    role: "Designer",
    model: "Gemini",
    status: "done",
    text: "Three tiers, Pro in the middle, credits larger than the price.",
    credits: "3.1",
  },
  {
    role: "Critic",
    model: "CoReason",
    status: "reviewing",
    text: "Waiting for the Coder's draft to score it against the brief.",
    credits: "0.9",
  },
];

const statusLabel = { done: "Done", streaming: "Writing", reviewing: "Up next" } as const;

function RunPreview() {
  const accents = new Map(ROLE_COPY.map((role) => [role.name, role.accent]));
  return (
    <figure className="relative">
      <div
        aria-hidden="true"
        className="absolute -inset-4 rounded-[2rem] bg-gradient-to-tr from-brand-500/30 via-violet-500/20 to-sky-400/20 blur-2xl"
      />
      <div className="relative overflow-hidden rounded-2xl border border-white/10 bg-ink-900/90 shadow-2xl ring-1 ring-white/5">
        <div className="flex items-center justify-between gap-3 border-b border-white/10 px-4 py-3">
          <p className="truncate text-sm font-medium text-white">Pricing page launch plan</p>
          <p className="flex shrink-0 items-center gap-2 text-xs text-ink-300">
            <span
              className="size-2 rounded-full motion-safe:animate-pulse bg-emerald-400"
              aria-hidden="true"
            />
            Live
          </p>
        </div>
        <div className="space-y-3 p-4">
          <div className="rounded-xl bg-white/5 p-3">
            <p className="text-xs font-semibold tracking-wide text-brand-200 uppercase">
              Coordinator plan
            </p>
            <ol className="mt-2 space-y-1 text-sm text-ink-200">
              <li>1. Strategist frames positioning</li>
              <li>2. Coder and Designer work in parallel</li>
              <li>3. Critic reviews, then the coordinator writes the answer</li>
            </ol>
          </div>
          <ul className="space-y-2">
            {PREVIEW_AGENTS.map((agent) => {
              const accent = accents.get(agent.role);
              return (
                <li
                  key={agent.role}
                  className="rounded-xl border border-white/10 bg-ink-950/60 p-3"
                >
                  <div className="flex items-center justify-between gap-3 text-xs">
                    <p className="flex items-center gap-2 font-semibold text-white">
                      <span
                        aria-hidden="true"
                        className={cn("size-2 rounded-full", accent?.dot ?? "bg-brand-400")}
                      />
                      {agent.role}
                      <span className="font-normal text-ink-400">on {agent.model}</span>
                    </p>
                    <p className="text-ink-300">
                      <span className="sr-only">Status: </span>
                      {statusLabel[agent.status]}
                      <span aria-hidden="true"> · </span>
                      <span className="font-mono text-brand-200">{agent.credits} cr</span>
                    </p>
                  </div>
                  <p className="mt-1.5 text-sm leading-6 text-ink-200">{agent.text}</p>
                </li>
              );
            })}
          </ul>
          <div className="flex items-center justify-between rounded-xl bg-brand-600/20 px-3 py-2 text-sm">
            <span className="text-brand-100">Spent so far</span>
            <span className="font-mono font-semibold text-white">15.0 of 40 credits</span>
          </div>
        </div>
      </div>
      <figcaption className="sr-only">
        An example run: the coordinator's plan, four agents on different models with their status
        and the credits each has spent so far.
      </figcaption>
    </figure>
  );
}

export function Hero() {
  const starter = PLANS.find((plan) => plan.tier === "starter");
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden bg-ink-950">
      <div
        aria-hidden="true"
        className="absolute inset-0 bg-[radial-gradient(ellipse_at_top_left,var(--color-brand-800),transparent_55%)] opacity-70"
      />
      <Container className="relative grid items-center gap-14 py-20 sm:py-24 lg:grid-cols-[1.05fr_1fr] lg:py-28">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-white/15 bg-white/5 px-3 py-1 text-sm text-ink-200">
            <span className="size-1.5 rounded-full bg-brand-300" aria-hidden="true" />
            Multi-agent AI, streaming live
          </p>
          <h1
            id="hero-title"
            className="mt-6 text-4xl font-bold tracking-tight text-balance text-white sm:text-5xl lg:text-6xl"
          >
            Many models. One team. Better answers.
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-8 text-ink-300">
            Cohort puts a coordinator in charge of a Strategist, a Coder, a Designer and a Critic,
            each on the model that suits it — GPT, Claude, Gemini or our own Co* models. Watch the
            plan, the drafts and the cost of every agent as they happen.
          </p>
          <GetStartedButtons to="/features" dark className="mt-10">
            See how it works <span aria-hidden="true">→</span>
          </GetStartedButtons>
          {starter ? (
            <p className="mt-6 text-sm text-ink-400">
              Starter is {formatUsd(starter.priceCentsMonthly / 100)} a month with{" "}
              {formatCredits(starter.monthlyCredits)} credits. Calls on your own keys cost no
              credits.
            </p>
          ) : null}
        </div>
        <RunPreview />
      </Container>
    </section>
  );
}
