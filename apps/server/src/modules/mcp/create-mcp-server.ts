import {
  ACCESS_TOKEN_MESSAGES,
  type AccessTokenScope,
  MCP_SERVER_NAME,
  MCP_TOOLS,
  ZMcpGetSessionInput,
  ZMcpGetSessionOutput,
  ZMcpListSessionsInput,
  ZMcpListSessionsOutput,
  ZMcpRunTeamInput,
  ZMcpRunTeamOutput,
  ZMcpSearchDocumentsInput,
  ZMcpSearchDocumentsOutput,
} from "@cohort/contracts";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  type CallToolResult,
  CancelledNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Principal } from "../../platform/auth";
import { AppError, INTERNAL_ERROR_MESSAGE } from "../../platform/errors";
import type { DocumentSearch } from "../documents/document-search";
import type { CallRegistry } from "./call-registry";
import { getMcpSession, listMcpSessions } from "./read-sessions";
import { type RunTeamHooks, runTeam } from "./run-team";

/** Who calls: the access token's owner, the token and what it may do. */
export interface McpCaller {
  principal: Principal;
  tokenId: string;
  scopes: readonly AccessTokenScope[];
}

export interface McpServerDeps {
  calls: CallRegistry;
  attachDocuments(userId: string, sessionId: string, documentIds: readonly string[]): Promise<void>;
  documents: Pick<DocumentSearch, "search">;
  log: FastifyBaseLogger;
}

const DEFAULT_SEARCH_LIMIT = 10;

const INSTRUCTIONS =
  "Cohort runs a team of AI agents on a task: a coordinator plans, agents (Strategist, Coder, Designer) work on sub-tasks, a Critic reviews, and the coordinator writes the final answer. Use run_team for work that benefits from that; it spends the token owner's credits and takes from seconds to minutes. Every run is kept as a session the user can open in the web app (run_url).";

function text(value: string): CallToolResult["content"] {
  return [{ type: "text", text: value }];
}

function toolError(message: string): CallToolResult {
  return { content: text(message), isError: true };
}

/**
 * A tool's work with its scope check and the one way failures become tool errors: an
 * AppError's message is meant for the user as is; anything else is logged and answered with
 * the generic message, never its internals.
 */
async function guarded(
  caller: McpCaller,
  deps: McpServerDeps,
  scope: AccessTokenScope,
  work: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  if (!caller.scopes.includes(scope))
    return toolError(ACCESS_TOKEN_MESSAGES.insufficientScope(scope));
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) return toolError(error.message);
    deps.log.error({ err: error }, "mcp tool failed");
    return toolError(INTERNAL_ERROR_MESSAGE);
  }
}

function structured<T extends Record<string, unknown>>(data: T, summary: string): CallToolResult {
  return { content: text(summary), structuredContent: data };
}

/**
 * One MCP server for one POST (stateless, decision 035): the tools, bound to the caller. A
 * cancellation (a POST of its own) is routed to the call it names through `deps.calls`.
 */
export function createMcpServer(
  app: FastifyInstance,
  caller: McpCaller,
  deps: McpServerDeps,
): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: "Cohort", version: app.appVersion },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.server.setNotificationHandler(CancelledNotificationSchema, (notification) => {
    const { requestId, reason } = notification.params;
    if (requestId !== undefined) {
      deps.calls.cancel(caller.tokenId, requestId, reason ?? "Cancelled by the client");
    }
  });
  const userId = caller.principal.user.id;

  server.registerTool(
    MCP_TOOLS.runTeam,
    {
      title: "Run the Cohort team",
      description:
        "Runs Cohort's agent team on a task: plan, agents, Critic review, final answer. Returns the answer, a link to the run in the web app, its cost in credits and the Critic's score. Sends progress notifications (plan made, each agent done, the Critic's score, the final answer started) when the request carries a progressToken. Needs the `chat` scope; spends the token owner's credits.",
      inputSchema: ZMcpRunTeamInput,
      outputSchema: ZMcpRunTeamOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    (input, extra) =>
      guarded(caller, deps, "chat", async () => {
        const controller = new AbortController();
        const abort = () => controller.abort(extra.signal.reason);
        extra.signal.addEventListener("abort", abort, { once: true });
        const release = deps.calls.add(caller.tokenId, extra.requestId, controller);
        const progressToken = extra._meta?.progressToken;
        let progress = 0;
        const hooks: RunTeamHooks = {
          signal: controller.signal,
          onProgress(message) {
            if (progressToken === undefined) return;
            progress += 1;
            void extra
              .sendNotification({
                method: "notifications/progress",
                params: { progressToken, progress, message },
              })
              .catch(() => {});
          },
          attachDocuments: (sessionId, ids) => deps.attachDocuments(userId, sessionId, ids),
        };
        try {
          const output = await runTeam(app, caller.principal, input, hooks);
          const summary =
            output.status === "completed"
              ? `${output.answer ?? ""}\n\n---\nRun: ${output.run_url} · ${output.credits} credits · Critic score: ${output.critic_score ?? "none"}/10`
              : `The run ${output.status === "failed" ? `failed: ${output.error}` : "was stopped"}. Run: ${output.run_url} · ${output.credits} credits`;
          return { ...structured(output, summary), isError: output.status !== "completed" };
        } catch (error) {
          // The client gave up on the call: nobody reads this answer, the run is stopped.
          if (controller.signal.aborted) return toolError("Cancelled: the run was stopped.");
          throw error;
        } finally {
          release();
          extra.signal.removeEventListener("abort", abort);
        }
      }),
  );

  server.registerTool(
    MCP_TOOLS.listSessions,
    {
      title: "List Cohort sessions",
      description:
        "Your Cohort sessions, newest first, with their status and a link to each. Needs the `sessions:read` scope.",
      inputSchema: ZMcpListSessionsInput,
      outputSchema: ZMcpListSessionsOutput,
      annotations: { readOnlyHint: true },
    },
    (input) =>
      guarded(caller, deps, "sessions:read", async () => {
        const output = await listMcpSessions(app, userId, input.limit);
        const lines = output.sessions.map((s) => `- ${s.title} (${s.status}) — id ${s.id}`);
        return structured(
          output,
          lines.length > 0
            ? `${output.total} sessions; newest first:\n${lines.join("\n")}`
            : "No sessions yet.",
        );
      }),
  );

  server.registerTool(
    MCP_TOOLS.getSession,
    {
      title: "Read a Cohort session",
      description:
        "One of your sessions: its messages in order and each run's answer, cost and Critic score. Needs the `sessions:read` scope.",
      inputSchema: ZMcpGetSessionInput,
      outputSchema: ZMcpGetSessionOutput,
      annotations: { readOnlyHint: true },
    },
    (input) =>
      guarded(caller, deps, "sessions:read", async () => {
        const output = await getMcpSession(app, userId, input.session_id);
        const transcript = output.messages.map((m) => `${m.role}: ${m.content}`).join("\n\n");
        return structured(output, `${output.session.title}\n\n${transcript}`);
      }),
  );

  server.registerTool(
    MCP_TOOLS.searchDocuments,
    {
      title: "Search your Cohort documents",
      description:
        "Full-text (and, when configured, semantic) search over your uploaded documents: the best passages with their document, page and section. Pass document ids from here to run_team to give the team those documents. Needs the `sessions:read` scope.",
      inputSchema: ZMcpSearchDocumentsInput,
      outputSchema: ZMcpSearchDocumentsOutput,
      annotations: { readOnlyHint: true },
    },
    (input) =>
      guarded(caller, deps, "sessions:read", async () => {
        const passages = await deps.documents.search({
          // MCP works in the token owner's personal workspace (its id is the user's).
          workspaceId: userId,
          query: input.query,
          ...(input.document_ids ? { documentIds: input.document_ids } : {}),
          limit: input.limit ?? DEFAULT_SEARCH_LIMIT,
        });
        const lines = passages.map(
          (p) =>
            `[${p.document_name}${p.page === null ? "" : `, p. ${p.page}`}] (document ${p.document_id})\n${p.text}`,
        );
        return structured(
          { passages },
          lines.length > 0 ? lines.join("\n\n") : "No passage matches.",
        );
      }),
  );

  return server;
}
