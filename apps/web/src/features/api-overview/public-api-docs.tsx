import {
  ACCESS_TOKEN_SCOPE_LABELS,
  ACCESS_TOKEN_SCOPES,
  COHORT_TEAM_MODEL,
  MCP_TOOLS,
  OPENAI_ERROR_TYPES,
  OPENAI_UNSUPPORTED_FIELDS,
  type TAccessTokenScope,
  type TCohortRunSummary,
  type TMcpRunTeamOutput,
  type TMcpToolName,
} from "@cohort/contracts";
import { useMemo } from "react";
import { Link } from "react-router";
import { CodeBlock } from "../../components/markdown/code-block";
import { apiExamples, TOKEN_ENV } from "./api-examples";
import { ScrollTable } from "./scroll-table";

const SAMPLE_SESSION = "5b0c9f8e-2a41-4c57-9d7e-3f1a2b6c8d90";
const SAMPLE_RUN = "a3e1c2d4-6b7f-4e8a-9c0d-1e2f3a4b5c6d";

function cohortExample(origin: string): TCohortRunSummary {
  return {
    session_id: SAMPLE_SESSION,
    session_url: `${origin}/chat/${SAMPLE_SESSION}`,
    run_id: SAMPLE_RUN,
    status: "completed",
    plan: [
      { id: "s1", role: "strategist", task: "Outline the launch plan", model: "coreason" },
      { id: "s2", role: "designer", task: "Propose the page structure", model: "codepth" },
    ],
    agents: [
      {
        role: "strategist",
        kind: "agent",
        model: "coreason",
        status: "completed",
        input_tokens: 412,
        output_tokens: 655,
        credits: 1.32,
      },
    ],
    total_credits: 4.87,
    critic_score: 8,
  };
}

function runTeamExample(origin: string): TMcpRunTeamOutput {
  return {
    status: "completed",
    answer: "## Launch plan\n…",
    session_id: SAMPLE_SESSION,
    run_id: SAMPLE_RUN,
    run_url: `${origin}/chat/${SAMPLE_SESSION}`,
    credits: 4.87,
    critic_score: 8,
    error: null,
  };
}

const ERROR_ROWS: readonly [keyof typeof OPENAI_ERROR_TYPES, string][] = [
  [400, "The body is malformed, or uses a field Cohort does not support (named in param)."],
  [401, "The access token is missing, unknown, expired or revoked."],
  [402, "Your credits cannot cover the call (code insufficient_credits)."],
  [403, "The token lacks the scope, or the current user agreement is not accepted yet."],
  [404, "The model or the route does not exist."],
  [429, "Too many requests with this token: wait Retry-After seconds."],
  [500, "Something failed on our side; the message is generic."],
];

const TOOL_ROWS: readonly [TMcpToolName, TAccessTokenScope, string][] = [
  [
    MCP_TOOLS.runTeam,
    "chat",
    "task (and optional document_ids) → the final answer, the run's link, its cost in credits and the Critic's score. Sends progress notifications while it runs; cancelling the call stops the run.",
  ],
  [
    MCP_TOOLS.listSessions,
    "sessions:read",
    "limit? → your sessions, newest first, with their status and links.",
  ],
  [
    MCP_TOOLS.getSession,
    "sessions:read",
    "session_id → the session's messages and each run's answer, cost and score.",
  ],
  [
    MCP_TOOLS.searchDocuments,
    "sessions:read",
    "query, document_ids?, limit? → the best passages of your uploaded documents, with document, page and section. Pass their document ids to run_team.",
  ],
];

/** The text column styles every pre; a code block keeps its own spacing inside its frame. */
const CODE_WRAPPER = "not-prose [&_pre]:my-0";

function Example({ title, code, lang }: { title: string; code: string; lang: string }) {
  return (
    <section aria-label={title} className={`${CODE_WRAPPER} my-6`}>
      <h4 className="mb-1 text-sm font-semibold text-ink-900">{title}</h4>
      <CodeBlock code={code} lang={lang} />
    </section>
  );
}

/** Access tokens, the OpenAI-compatible API and the MCP server, with runnable examples. */
export function PublicApiDocs() {
  const origin = window.location.origin;
  const examples = useMemo(() => apiExamples(origin), [origin]);
  const cohortJson = useMemo(
    () => JSON.stringify({ cohort: cohortExample(origin) }, null, 2),
    [origin],
  );
  const runTeamJson = useMemo(() => JSON.stringify(runTeamExample(origin), null, 2), [origin]);

  return (
    <>
      <h2 id="access-tokens">Access tokens</h2>
      <p>
        Your own code and tools call Cohort with a personal access token. Create one in{" "}
        <Link to="/settings">Settings → Access tokens</Link>: give it a name, an optional expiry and
        its scopes. It is shown once, so copy it then; Cohort keeps only a hash. Send it as{" "}
        <code>Authorization: Bearer cohort_pat_…</code> — no cookies, no CSRF token. Only{" "}
        <code>{examples.apiBase.replace(origin, "")}</code> and the MCP server accept it. Each token
        has its own rate limit, spends your credits with the same reservations as the web app, and
        stops working the moment you revoke it. The examples read it from <code>{TOKEN_ENV}</code>.
      </p>
      <ScrollTable
        head={["Scope", "Allows"]}
        code={[0]}
        rows={ACCESS_TOKEN_SCOPES.map((scope) => [scope, ACCESS_TOKEN_SCOPE_LABELS[scope]])}
      />

      <h2 id="openai">OpenAI-compatible API</h2>
      <p>
        Point the official <code>openai</code> SDKs (or any OpenAI-compatible client) at{" "}
        <code data-testid="api-base-url">{examples.apiBase}</code> with your access token as the API
        key.
      </p>
      <ScrollTable>
        <tr>
          <td>
            <code>GET</code>
          </td>
          <td>
            <code>/v1/models</code>
          </td>
          <td>
            <code>{COHORT_TEAM_MODEL}</code> and the catalogue's models. Any scope.
          </td>
        </tr>
        <tr>
          <td>
            <code>POST</code>
          </td>
          <td>
            <code>/v1/chat/completions</code>
          </td>
          <td>
            A chat completion. Needs the <code>chat</code> scope; spends your credits.
          </td>
        </tr>
      </ScrollTable>
      <p>
        Chat completions stream (<code>stream: true</code>: server-sent{" "}
        <code>chat.completion.chunk</code>s, then <code>[DONE]</code>) or answer at once, and take{" "}
        <code>temperature</code>, <code>max_tokens</code> (or <code>max_completion_tokens</code>),{" "}
        <code>stop</code> and <code>stream_options.include_usage</code>; the answer reports{" "}
        <code>usage</code>.
      </p>
      <p>
        With a catalogue model it is a single model call. Fields Cohort cannot honour are refused
        with a 400 naming them: {OPENAI_UNSUPPORTED_FIELDS.map((f) => f).join(", ")}.
      </p>

      <h3>
        The <code>{COHORT_TEAM_MODEL}</code> model
      </h3>
      <p>
        <code>model: "{COHORT_TEAM_MODEL}"</code> runs the whole team on your last user message
        (system messages become instructions, earlier turns the history): the coordinator plans, the
        agents work, the Critic reviews, the coordinator writes the answer — which is the
        completion, streamed as it is written. The run is a new session you can open in the web app.
        The completion (the last chunk, when streamed) carries an extra <code>cohort</code> field
        with the run's plan, each agent call's tokens and credits, the total and the Critic's score:
      </p>
      <div className={CODE_WRAPPER}>
        <CodeBlock code={cohortJson} lang="json" />
      </div>
      <p>Closing the connection stops the run and releases its unspent credit reservations.</p>

      <h3>Examples</h3>
      <Example title="JavaScript (openai npm package)" code={examples.openaiJs} lang="js" />
      <Example title="Python (openai package)" code={examples.openaiPython} lang="python" />
      <Example title="curl" code={examples.curl} lang="bash" />

      <h3>Errors</h3>
      <p>
        Errors under <code>/api/v1</code> use OpenAI's shape, so the SDKs raise their usual typed
        errors; Cohort's own code is in <code>code</code>:
      </p>
      <div className={CODE_WRAPPER}>
        <CodeBlock
          lang="json"
          code={JSON.stringify(
            {
              error: {
                message: "This call needs 12 credits; you have 4.",
                type: OPENAI_ERROR_TYPES[402],
                param: null,
                code: "insufficient_credits",
              },
            },
            null,
            2,
          )}
        />
      </div>
      <ScrollTable
        head={["Status", "type", "When"]}
        code={[1]}
        rows={ERROR_ROWS.map(([status, text]) => [
          status === 500 ? "5xx" : status,
          OPENAI_ERROR_TYPES[status],
          text,
        ])}
      />
      <p>
        A team run that fails after it started answers 402 when the credits ran out and 502
        otherwise; in a stream the failure arrives as a final <code>data:</code> frame holding the
        error object.
      </p>

      <h2 id="mcp">MCP server</h2>
      <p>
        Cohort is a Model Context Protocol server at{" "}
        <code data-testid="mcp-url">{examples.mcpUrl}</code>: streamable HTTP, stateless (every
        JSON-RPC message is a <code>POST</code>; answers come back as JSON or as an SSE stream on
        the same response). Authenticate with your access token in the <code>Authorization</code>{" "}
        header; a missing or bad token gets 401 with <code>WWW-Authenticate: Bearer</code>.
      </p>
      <ScrollTable head={["Tool", "Scope", "What it does"]} code={[0, 1]} rows={TOOL_ROWS} />
      <p>
        A team run takes from seconds to minutes. When your request carries a progress token,{" "}
        <code>run_team</code> sends <code>notifications/progress</code> as it goes — the plan made,
        each agent done, the Critic's score, the final answer started — and ends with:
      </p>
      <div className={CODE_WRAPPER}>
        <CodeBlock code={runTeamJson} lang="json" />
      </div>
      <Example
        title="MCP client configuration (clients that take a URL and headers)"
        code={examples.mcpConfig}
        lang="json"
      />
      <Example title="TypeScript (MCP SDK client)" code={examples.mcpSdk} lang="js" />
      <p>
        The API reference lists every route with its schemas: <a href="/api/docs">/api/docs</a>.
      </p>
    </>
  );
}
