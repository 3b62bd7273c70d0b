import { NATIVE_MODELS } from "@cohort/contracts";
import { Link } from "react-router";
import { cn } from "../../components/cn";
import { Container } from "../../components/container";
import { CtaBand } from "../../components/marketing/cta-band";
import { PageHeader } from "../../components/marketing/page-header";
import { RoleGrid } from "../../components/marketing/role-grid";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";

interface FeatureGroup {
  id: string;
  title: string;
  intro: string;
  items: readonly { title: string; text: string }[];
}

const GROUPS: readonly FeatureGroup[] = [
  {
    id: "orchestration",
    title: "Orchestration",
    intro: "One message starts a run. The run has a plan, a team, a review and an answer.",
    items: [
      {
        title: "A written plan first",
        text: "The coordinator returns a structured plan — which roles work, on which sub-task, in which order — and you see it before the agents start.",
      },
      {
        title: "Manual agent selection",
        text: "Pick the roles yourself for a session; the coordinator then only writes their sub-tasks.",
      },
      {
        title: "Parallel, streaming agents",
        text: "Independent sub-tasks run at the same time, each streaming token by token on its own model.",
      },
      {
        title: "A bounded critic loop",
        text: "The Critic scores each draft. Below the bar, the draft gets one revision round — never an endless loop that burns credits.",
      },
      {
        title: "One synthesised answer",
        text: "The coordinator streams a final answer that draws on every accepted draft.",
      },
      {
        title: "Stop at any time",
        text: "Stopping a run cancels every model call in it and releases their unused credits.",
      },
    ],
  },
  {
    id: "models",
    title: "Models",
    intro: "The right model for each role, not one model for everything.",
    items: [
      {
        title: "GPT, Claude and Gemini",
        text: "Use the leading hosted models side by side in one session.",
      },
      {
        title: "Native Co* models",
        text: `${NATIVE_MODELS.map((model) => `${model.name} (${model.purpose.toLowerCase()})`).join(", ")}.`,
      },
      {
        title: "A model per role",
        text: "Set the model behind each role for a session, or keep each role's default.",
      },
      {
        title: "Bring your own keys",
        text: "Calls on your own OpenAI, Anthropic or Google key cost no credits. Keys are encrypted at rest and never shown again.",
      },
      {
        title: "Model health",
        text: "Cohort checks providers continuously and tells you when a model is unavailable instead of failing silently.",
      },
      {
        title: "CoChat",
        text: "A single-model chat with its own model list, for conversations that don't need a team. Unlimited on Pro and Pro+.",
      },
    ],
  },
  {
    id: "credits",
    title: "Credits and cost",
    intro: "Know what a run costs while it runs.",
    items: [
      {
        title: "Live cost per agent",
        text: "Each agent's credits update as it streams, next to its output.",
      },
      {
        title: "Reserve, then settle",
        text: "Every call reserves its worst-case cost first and is settled on actual tokens. Failed or cancelled calls release their reservation.",
      },
      {
        title: "A balance that never goes negative",
        text: "Reservations happen one transaction at a time, so parallel agents can't spend the same credit twice.",
      },
      {
        title: "Warnings before you run dry",
        text: "Cohort warns you at 20 credits and again at 5, and tells you how much each run used.",
      },
      {
        title: "Plans and packages",
        text: "A monthly allowance with your plan, and credit packages whenever you need more.",
      },
      {
        title: "Usage you can read",
        text: "Requests, tokens, cost and credits used, totalled on your billing page.",
      },
    ],
  },
  {
    id: "workspaces",
    title: "Sessions, workspaces and export",
    intro: "Work that lasts longer than one conversation, and that a team can share.",
    items: [
      {
        title: "Live, resumable sessions",
        text: "Every run event is stored. Reconnect after a dropped connection or from another device and you miss nothing.",
      },
      {
        title: "Export conversations",
        text: "Take a session with you as Markdown or PDF, with its plan, drafts and answer, or as a file that imports back into Cohort.",
      },
      {
        title: "Workspace saving (Pro+)",
        text: "Save a session's setup (coordinator, agents, instructions, budget, documents) as a template and start the next session from it.",
      },
      {
        title: "Memory (Pro+)",
        text: "After a run, the coordinator proposes facts and preferences worth keeping; what you approve is used by your next runs, and shown on them. Pause, edit, export or delete it all in Settings.",
      },
      {
        title: "Team workspaces",
        text: "Invite your team into a shared workspace with one credit pool, a monthly cap per member, everyone's usage and an audit log.",
      },
      {
        title: "Documents",
        text: "Upload PDF, Word, CSV, JSON, Markdown, text or code once; attach them to sessions, and every agent works from the passages it needs and cites them, with links to the page.",
      },
    ],
  },
  {
    id: "trust",
    title: "Trust and security",
    intro: "Built the way you'd want a tool that touches your work to be built.",
    items: [
      {
        title: "Secure sessions",
        text: "httpOnly sign-in cookies, argon2id password hashing, revocable sign-in tokens and Google sign-in.",
      },
      {
        title: "CSRF protection",
        text: "Every change request carries a CSRF token; the web app refreshes it automatically.",
      },
      {
        title: "Redacted logs",
        text: "Passwords, tokens, secrets and API keys are replaced before any log line is written.",
      },
      {
        title: "A clear agreement",
        text: "You see the versioned user agreement before you start and whenever it changes.",
      },
      {
        title: "Admin audit log",
        text: "Administrative actions are recorded with who did what and when.",
      },
      {
        title: "A documented API",
        text: "The same API the web app uses, described in OpenAPI, with one error shape everywhere.",
      },
    ],
  },
];

export function FeaturesPage() {
  useDocumentMeta({
    title: "Features",
    description:
      "Coordinator plans, parallel streaming agents, a bounded critic loop, live cost per agent, native Co* models and bring-your-own keys.",
  });
  return (
    <>
      <PageHeader
        eyebrow="Features"
        title="Everything a team of models needs to do good work"
        lead="Cohort coordinates GPT, Claude, Gemini and its own Co* models as one team, streams their work live and keeps the spend honest."
      >
        <nav aria-label="Feature areas">
          <ul className="flex flex-wrap gap-2">
            {GROUPS.map((group) => (
              <li key={group.id}>
                <a
                  href={`#${group.id}`}
                  className="inline-flex rounded-full border border-ink-200 bg-white px-3 py-1.5 text-sm font-medium text-ink-700 hover:border-brand-300 hover:text-brand-700"
                >
                  {group.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </PageHeader>
      <section aria-labelledby="roles-title" className="py-16">
        <Container>
          <h2 id="roles-title" className="text-2xl font-bold tracking-tight text-ink-950">
            The four roles
          </h2>
          <RoleGrid className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4" />
        </Container>
      </section>
      {GROUPS.map((group, index) => (
        <section
          key={group.id}
          aria-labelledby={group.id}
          className={cn(
            "py-16",
            index % 2 === 0 ? "border-y border-ink-200 bg-ink-50" : "bg-white",
          )}
        >
          <Container>
            <div className="max-w-2xl">
              <h2
                id={group.id}
                className="text-2xl font-bold tracking-tight text-ink-950 sm:text-3xl"
              >
                {group.title}
              </h2>
              <p className="mt-3 text-lg text-ink-600">{group.intro}</p>
            </div>
            <ul className="mt-10 grid gap-x-8 gap-y-8 sm:grid-cols-2 lg:grid-cols-3">
              {group.items.map((item) => (
                <li key={item.title}>
                  <h3 className="font-semibold text-ink-950">{item.title}</h3>
                  <p className="mt-1.5 text-sm leading-6 text-ink-600">{item.text}</p>
                </li>
              ))}
            </ul>
          </Container>
        </section>
      ))}
      <Container className="pt-16 text-center">
        <p className="text-ink-600">
          See which plan includes what on the{" "}
          <Link to="/pricing" className="font-semibold text-brand-700 hover:underline">
            pricing page
          </Link>
          .
        </p>
      </Container>
      <CtaBand />
    </>
  );
}
