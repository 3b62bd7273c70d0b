import {
  CREDITS_CRITICAL_THRESHOLD,
  CREDITS_LOW_THRESHOLD,
  NATIVE_MODELS,
} from "@cohort/contracts";
import { Link } from "react-router";
import { Container } from "../../components/container";
import { PageHeader } from "../../components/marketing/page-header";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";

const CONTENTS = [
  { id: "getting-started", label: "Getting started" },
  { id: "testing", label: "Running the tests" },
  { id: "configuration", label: "Configuration" },
  { id: "sessions", label: "Sessions" },
  { id: "runs", label: "Runs" },
  { id: "roles", label: "Roles and models" },
  { id: "credits", label: "Credits" },
  { id: "cochat", label: "CoChat" },
  { id: "next", label: "Next steps" },
] as const;

const ENVIRONMENT = [
  [
    "DATABASE_URL",
    "PostgreSQL connection string; without it, data goes to an embedded database in ./data.",
  ],
  [
    "REDIS_URL",
    "Redis for realtime fan-out, rate limits and run control across several instances.",
  ],
  ["OPENAI_API_KEY", "Hosted GPT models."],
  ["ANTHROPIC_API_KEY", "Hosted Claude models."],
  ["GOOGLE_GENERATIVE_AI_API_KEY", "Hosted Gemini models."],
  ["OPENAI_COMPATIBLE_BASE_URL", "A local or self-hosted server that speaks the OpenAI API."],
  [
    "STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET",
    "Real payments; without them, a built-in development checkout is used.",
  ],
  [
    "SMTP_URL",
    "Real email; without it, mail goes to a development outbox shown in the admin area.",
  ],
  ["GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET", "Google sign-in."],
] as const;

export function DocsPage() {
  useDocumentMeta({
    title: "Documentation",
    description:
      "Run Cohort locally with npm install && npm start, run the tests with npm test, and learn how sessions, runs, roles and credits work.",
  });
  return (
    <>
      <PageHeader
        eyebrow="Documentation"
        title="Get Cohort running, then learn how it thinks"
        lead="Two commands start the whole product on your machine — no keys, no services. The rest of this page explains sessions, runs, roles and credits."
      />
      <Container className="grid gap-12 py-14 lg:grid-cols-[14rem_1fr] lg:py-20">
        <nav aria-labelledby="docs-contents" className="lg:sticky lg:top-24 lg:self-start">
          <h2 id="docs-contents" className="text-sm font-semibold text-ink-900">
            On this page
          </h2>
          <ul className="mt-3 space-y-2 text-sm">
            {CONTENTS.map((item) => (
              <li key={item.id}>
                <a
                  href={`#${item.id}`}
                  className="text-ink-600 hover:text-brand-700 hover:underline"
                >
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="prose-cohort min-w-0">
          <section aria-labelledby="getting-started">
            <h2 id="getting-started">Getting started</h2>
            <p>
              You need Node.js 20.19 or a later 20.x, 22.12 or a later 22.x, or 24 and newer (what
              the repository's <code>package.json</code> asks for:{" "}
              <code>^20.19.0 || ^22.12.0 || &gt;=24.0.0</code>). From the repository root, install
              the dependencies and start Cohort:
            </p>
            <pre>
              <code>npm install && npm start</code>
            </pre>
            <p>
              Open <code>http://localhost:3000</code>. One process serves the API under{" "}
              <code>/api</code>, the realtime connection under <code>/socket.io</code> and the web
              app for every other path. With nothing configured, Cohort still works end to end:
            </p>
            <ul>
              <li>
                Data is stored in an embedded PostgreSQL-compatible database in <code>./data</code>.
              </li>
              <li>Model calls go to a built-in simulator, clearly labelled as such in the app.</li>
              <li>Payments use a development checkout instead of Stripe.</li>
              <li>
                Emails land in a development outbox you can read in the admin area and on the
                console.
              </li>
            </ul>
          </section>

          <section aria-labelledby="testing">
            <h2 id="testing">Running the tests</h2>
            <pre>
              <code>npm test</code>
            </pre>
            <p>
              One command runs everything: type checks, the linter, unit tests, integration tests
              against a fresh database per file, and browser tests in Chromium against the real
              server.
            </p>
          </section>

          <section aria-labelledby="configuration">
            <h2 id="configuration">Configuration</h2>
            <p>
              Each built-in default is replaced by a real service through one environment variable.
              Settings are checked once at start-up; a bad value stops the process with a message
              that names the variable. <code>.env.example</code> lists them all.
            </p>
            <table>
              <thead>
                <tr>
                  <th scope="col">Variable</th>
                  <th scope="col">What it turns on</th>
                </tr>
              </thead>
              <tbody>
                {ENVIRONMENT.map(([name, text]) => (
                  <tr key={name}>
                    <td>
                      <code>{name}</code>
                    </td>
                    <td>{text}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>

          <section aria-labelledby="sessions">
            <h2 id="sessions">Sessions</h2>
            <p>
              A session is a conversation with a team. It has a title, an optional description, the{" "}
              <strong>coordinator model</strong> that plans its runs, and optional{" "}
              <strong>agent preferences</strong>: which model each role uses. With{" "}
              <strong>manual agent selection</strong> on, you choose the roles yourself and the
              coordinator only writes their sub-tasks. Sessions live at{" "}
              <code>/chat/:sessionId</code> and keep every message and run.
            </p>
          </section>

          <section aria-labelledby="runs">
            <h2 id="runs">Runs</h2>
            <p>Each message you send starts a run, which moves through four stages:</p>
            <ol>
              <li>
                <strong>Planning</strong> — the coordinator returns a structured plan: which roles
                work, on which sub-task, in which order.
              </li>
              <li>
                <strong>Agents</strong> — each role works on its own model; independent sub-tasks
                run in parallel, streaming as they go.
              </li>
              <li>
                <strong>Review</strong> — the Critic scores the drafts; a draft below the bar gets
                one revision round.
              </li>
              <li>
                <strong>Synthesis</strong> — the coordinator streams the final answer.
              </li>
            </ol>
            <p>
              Every step is stored as an event and sent to everyone viewing the session. If your
              connection drops, Cohort reconnects and replays what you missed. Stopping a run
              cancels all of its model calls.
            </p>
          </section>

          <section aria-labelledby="roles">
            <h2 id="roles">Roles and models</h2>
            <p>
              The four roles are the <strong>Strategist</strong> (plans and frames),{" "}
              <strong>Coder</strong> (writes code and technical detail), <strong>Designer</strong>{" "}
              (shapes structure, flows and wording) and <strong>Critic</strong> (scores and
              challenges). Any role can run on GPT, Claude, Gemini or a native model:
            </p>
            <ul>
              {NATIVE_MODELS.map((model) => (
                <li key={model.id}>
                  <strong>{model.name}</strong> — {model.purpose.toLowerCase()}
                </li>
              ))}
            </ul>
          </section>

          <section aria-labelledby="credits">
            <h2 id="credits">Credits</h2>
            <p>
              Hosted model calls are paid in credits. Before a call starts, Cohort reserves its
              worst-case cost (its maximum tokens at the model's price); when the call ends, it is
              settled on the tokens actually used and the rest is released. A failed or cancelled
              call releases its whole reservation, and a balance can never go below zero — even with
              several agents running at once.
            </p>
            <p>
              The app warns you when your balance falls to {CREDITS_LOW_THRESHOLD} credits or fewer,
              and again at {CREDITS_CRITICAL_THRESHOLD} or fewer. Calls made with your own provider
              key cost no credits.
            </p>
          </section>

          <section aria-labelledby="cochat">
            <h2 id="cochat">CoChat</h2>
            <p>
              CoChat is a single-model chat with its own model list, at <code>/cochat</code>. It is
              included on Pro, Pro+ and Enterprise; on other plans it shows as locked with a link to
              upgrade.
            </p>
          </section>

          <section aria-labelledby="next">
            <h2 id="next">Next steps</h2>
            <ul>
              <li>
                Build on the same API the web app uses: <Link to="/api">API overview</Link>.
              </li>
              <li>
                Compare plans and credit allowances: <Link to="/pricing">pricing</Link>.
              </li>
              <li>
                Stuck? <Link to="/contact">Contact us</Link>.
              </li>
            </ul>
          </section>
        </div>
      </Container>
    </>
  );
}
