import {
  API_BASE,
  API_TIMEOUT_MS,
  COCHAT_TIMEOUT_MS,
  CSRF_HEADER,
  DEFAULT_RETRY_AFTER_SECONDS,
  ERROR_CODES,
  REQUEST_ID_HEADER,
  SOCKET_PATH,
  type TErrorCode,
} from "@cohort/contracts";
import { Link } from "react-router";
import { ButtonAnchor } from "../../components/button";
import { Container } from "../../components/container";
import { PageHeader } from "../../components/marketing/page-header";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { PublicApiDocs } from "./public-api-docs";
import { ScrollTable } from "./scroll-table";

const ERROR_MEANINGS: Readonly<Record<TErrorCode, string>> = {
  bad_request: "The request was refused as it stands; the message says why.",
  not_found: "The resource or route doesn't exist.",
  validation_failed: "The body or query failed validation; details lists the fields.",
  invalid_json: "The body isn't valid JSON.",
  payload_too_large: "The body is larger than the 1 MB limit.",
  unsupported_media_type: "Send application/json.",
  method_not_allowed: "The route exists, but not with this method.",
  csrf_invalid: "The CSRF token is missing or wrong; fetch a new one and retry once.",
  rate_limited: "Too many requests; wait for Retry-After seconds.",
  unauthorized: "Not signed in, or the sign-in has expired.",
  forbidden: "Signed in, but not allowed to do this.",
  agreement_required: "Accept the current user agreement first.",
  insufficient_credits: "The balance can't cover the call's reservation.",
  cochat_locked: "CoChat needs a Pro, Pro+ or Enterprise plan.",
  conflict: "The request clashes with the current state, e.g. a duplicate.",
  internal_error: "Something failed on our side; quote the request id.",
  service_unavailable: "A dependency is down; try again shortly.",
};

const ENDPOINT_GROUPS = [
  {
    title: "Sessions and runs",
    rows: [
      ["GET", "/sessions", "List your sessions"],
      ["POST", "/sessions", "Create a session (title, description, coordinator_model, …)"],
      ["GET", "/sessions/{id}", "Read one session"],
      ["PUT", "/sessions/{id}/status", "Change a session's status"],
      ["POST", "/ai/chat", "Send a message; starts a run and returns its id"],
    ],
  },
  {
    title: "Models",
    rows: [
      ["GET", "/ai/models", "Models available to you"],
      ["GET", "/ai/agent-roles", "The agent roles"],
      ["GET", "/models/available?role=…&includeExternal=true", "Models for a role"],
      ["GET", "/models/health", "Provider health"],
    ],
  },
  {
    title: "Account and billing",
    rows: [
      ["GET", "/users/profile", "Your profile, tier and credit balance"],
      ["GET", "/users/usage", "Requests, tokens, cost and credits used"],
      ["POST", "/users/test-api-key", "Check a provider key before saving it"],
      ["POST", "/billing/create-checkout-session", "Start a plan checkout"],
      ["POST", "/billing/purchase-credits", "Buy a credit package"],
    ],
  },
  {
    title: "CoChat",
    rows: [
      ["GET", "/cochat/models", "CoChat's model list"],
      ["POST", "/cochat/chat", "Send a CoChat conversation"],
    ],
  },
] as const;

const ERROR_EXAMPLE = `{
  "error": {
    "code": "insufficient_credits",
    "message": "This call needs 12 credits; you have 4.",
    "details": { "required": 12, "available": 4 }
  }
}`;

export function ApiPage() {
  useDocumentMeta({
    title: "API",
    description:
      "Call Cohort's agent team from your code: access tokens, the OpenAI-compatible API (/api/v1, model cohort-team), the MCP server (/api/mcp), and the JSON API the web app uses.",
  });
  const csrfHeader = CSRF_HEADER.replace(/(^|-)\w/g, (part) => part.toUpperCase()).replace(
    "Csrf",
    "CSRF",
  );
  const requestIdHeader = REQUEST_ID_HEADER.replace(/(^|-)\w/g, (part) => part.toUpperCase());

  return (
    <>
      <PageHeader
        eyebrow="API"
        title="Cohort's agent team, from your own code"
        lead="Call the whole team with the official openai SDKs or from any MCP client, with a personal access token, billed in credits. Below it, the JSON API the web app itself uses. The full reference is generated from the same schemas the server validates with."
      >
        <ButtonAnchor href="/api/docs" size="lg">
          Open the API reference
        </ButtonAnchor>
      </PageHeader>
      <Container size="prose" className="prose-cohort py-14 sm:py-20">
        <nav aria-label="On this page">
          <ul>
            <li>
              <a href="#access-tokens">Access tokens</a>
            </li>
            <li>
              <a href="#openai">OpenAI-compatible API</a> (<code>/api/v1</code>)
            </li>
            <li>
              <a href="#mcp">MCP server</a> (<code>/api/mcp</code>)
            </li>
            <li>
              <a href="#web-api">The web app's API</a>
            </li>
          </ul>
        </nav>
        <PublicApiDocs />

        <h2 id="web-api">The web app's API</h2>
        <p>
          Everything the web app does goes through one JSON API — sessions, runs, models, billing —
          authenticated by the sign-in. Here is how to call it.
        </p>
        <h3>Base URL and format</h3>
        <p>
          All endpoints live under <code>{API_BASE}</code> on the same origin as the app, for
          example <code>{API_BASE}/sessions</code>. Requests and responses are JSON; send{" "}
          <code>Content-Type: application/json</code>. Calls time out after {API_TIMEOUT_MS / 1000}{" "}
          seconds, CoChat calls after {COCHAT_TIMEOUT_MS / 1000} seconds.
        </p>

        <h3>Authentication</h3>
        <p>
          The web app signs in with <code>POST {API_BASE}/user-auth/login</code> and from then on is
          authenticated by an httpOnly sign-in cookie, so browser code never handles a secret. API
          clients and the realtime socket send the token returned at sign-in as{" "}
          <code>Authorization: Bearer &lt;token&gt;</code>.
        </p>

        <h3>CSRF protection</h3>
        <p>
          With cookie authentication, every <code>POST</code>, <code>PUT</code>, <code>PATCH</code>{" "}
          and <code>DELETE</code> must carry a CSRF token:
        </p>
        <ol>
          <li>
            Fetch one with <code>GET {API_BASE}/csrf-token</code>; the answer is{" "}
            <code>{'{ "csrfToken": "…" }'}</code>.
          </li>
          <li>
            Send it in the <code>{csrfHeader}</code> header of each change request.
          </li>
          <li>
            If a change request is refused with 403 and a message mentioning CSRF, fetch a fresh
            token and retry once.
          </li>
        </ol>

        <h3>Request ids</h3>
        <p>
          Send a unique <code>{requestIdHeader}</code> with each request (the web app uses a random
          UUID). The server echoes it and records it with its logs, so quoting it lets us find
          exactly what happened.
        </p>

        <h3>Errors</h3>
        <p>
          Every error has the same shape, with a stable code to switch on and a message you can
          show:
        </p>
        <pre>
          <code>{ERROR_EXAMPLE}</code>
        </pre>
        <ScrollTable
          head={["Code", "Meaning"]}
          code={[0]}
          rows={Object.values(ERROR_CODES).map((code) => [code, ERROR_MEANINGS[code]])}
        />
        <p>
          Server errors (5xx) never include internal details; the message is generic and the request
          id is what to send us.
        </p>

        <h3>Rate limits</h3>
        <p>
          When you send too many requests, the API answers <code>429</code> with a{" "}
          <code>Retry-After</code> header in seconds. Wait that long before trying again; if the
          header is missing, wait {DEFAULT_RETRY_AFTER_SECONDS} seconds.
        </p>

        <h3>Endpoints at a glance</h3>
        {ENDPOINT_GROUPS.map((group) => (
          <section key={group.title} aria-label={group.title}>
            <h4>{group.title}</h4>
            <ScrollTable code={[0, 1]} widths={["w-20", "w-1/2"]} rows={group.rows} />
          </section>
        ))}

        <h3>Realtime</h3>
        <p>
          Run progress arrives over socket.io at <code>{SOCKET_PATH}</code>, authenticated with your
          token. Emit <code>join-session</code> with a session id to receive that session's events —
          plan, agent output as it streams, the Critic's verdicts, the final answer and credit
          changes — and <code>leave-session</code> to stop. Events are stored, so a client that
          joins late receives what it missed.
        </p>

        <h3>Reference</h3>
        <p>
          The complete, always-current reference with every request and response schema is at{" "}
          <a href="/api/docs">/api/docs</a>. New to Cohort? Start with the{" "}
          <Link to="/docs">documentation</Link>.
        </p>
      </Container>
    </>
  );
}
