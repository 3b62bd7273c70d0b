import { z } from "zod";
import { ZDeniedToolCall } from "./approvals";
import { DOCUMENT_SEARCH_LIMIT_MAX, DOCUMENT_SEARCH_QUERY_MAX, ZPassage } from "./documents";
import { CHAT_MESSAGE_MAX, SESSION_DOCUMENTS_MAX, ZRunStatus } from "./runs";
import { ZChatMessage, ZSessionStatus } from "./sessions";

// ---------------------------------------------------------------------------------------
// The MCP server (decision 035): Cohort's team as tools for any Model Context
// Protocol client, over streamable HTTP, authenticated by a personal access token.
// ---------------------------------------------------------------------------------------

/** The one endpoint: JSON-RPC over POST (stateless; each POST answers on its own SSE stream). */
export const MCP_PATH = "/api/mcp";
export const MCP_SERVER_NAME = "cohort";
/** The largest JSON-RPC body accepted: a task at its maximum length fits several times. */
export const MCP_BODY_LIMIT_BYTES = 256 * 1024;

export const MCP_TOOLS = {
  runTeam: "run_team",
  listSessions: "list_sessions",
  getSession: "get_session",
  searchDocuments: "search_documents",
} as const;
export type TMcpToolName = (typeof MCP_TOOLS)[keyof typeof MCP_TOOLS];

export const MCP_LIST_SESSIONS_MAX = 100;

// Inputs are strict: an unknown argument (such as `template`, which waits for templates) is
// refused with its name instead of being dropped without a word.

export const ZMcpRunTeamInput = z
  .object({
    task: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(CHAT_MESSAGE_MAX)
      .describe("What the team should do, as you would write it in the chat"),
    document_ids: z
      .array(z.string().trim().min(1).max(100))
      .max(SESSION_DOCUMENTS_MAX)
      .optional()
      .describe(
        "Ids of your documents to attach to the run's session (search_documents returns them)",
      ),
  })
  .strict();
export type TMcpRunTeamInput = z.infer<typeof ZMcpRunTeamInput>;

export const ZMcpRunTeamOutput = z.object({
  status: ZRunStatus,
  /** The final answer; null when the run failed or was stopped before it. */
  answer: z.string().nullable(),
  session_id: z.string(),
  run_id: z.string(),
  /** The run in the web app. */
  run_url: z.string(),
  /** What the run cost, in credits. */
  credits: z.number(),
  /** The Critic's score out of 10; null when it gave none. */
  critic_score: z.number().nullable(),
  /** Why the run failed (failed runs only). */
  error: z.string().nullable(),
  /** Tool calls that needed a person's approval, which nobody can give here: denied. */
  tools_denied: z.array(ZDeniedToolCall).optional(),
});
export type TMcpRunTeamOutput = z.infer<typeof ZMcpRunTeamOutput>;

export const ZMcpListSessionsInput = z
  .object({
    limit: z
      .number()
      .int()
      .min(1)
      .max(MCP_LIST_SESSIONS_MAX)
      .optional()
      .describe("How many sessions, newest first (default 20)"),
  })
  .strict();
export type TMcpListSessionsInput = z.infer<typeof ZMcpListSessionsInput>;

export const ZMcpSessionSummary = z.object({
  id: z.string(),
  title: z.string(),
  status: ZSessionStatus,
  created_at: z.string(),
  url: z.string(),
});
export type TMcpSessionSummary = z.infer<typeof ZMcpSessionSummary>;

export const ZMcpListSessionsOutput = z.object({
  sessions: z.array(ZMcpSessionSummary),
  total: z.number().int(),
});
export type TMcpListSessionsOutput = z.infer<typeof ZMcpListSessionsOutput>;

export const ZMcpGetSessionInput = z
  .object({ session_id: z.string().trim().min(1).max(100).describe("A session id") })
  .strict();
export type TMcpGetSessionInput = z.infer<typeof ZMcpGetSessionInput>;

export const ZMcpRunSummary = z.object({
  id: z.string(),
  status: ZRunStatus,
  /** The final answer's text; null until there is one. */
  answer: z.string().nullable(),
  credits: z.number(),
  critic_score: z.number().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type TMcpRunSummary = z.infer<typeof ZMcpRunSummary>;

export const ZMcpGetSessionOutput = z.object({
  session: ZMcpSessionSummary,
  messages: z.array(ZChatMessage.pick({ id: true, role: true, content: true, created_at: true })),
  runs: z.array(ZMcpRunSummary),
});
export type TMcpGetSessionOutput = z.infer<typeof ZMcpGetSessionOutput>;

export const ZMcpSearchDocumentsInput = z
  .object({
    query: z.string().trim().min(1).max(DOCUMENT_SEARCH_QUERY_MAX).describe("What to look for"),
    document_ids: z
      .array(z.string().trim().min(1).max(100))
      .max(100)
      .optional()
      .describe("Search only these documents (default: all your ready documents)"),
    limit: z
      .number()
      .int()
      .min(1)
      .max(DOCUMENT_SEARCH_LIMIT_MAX)
      .optional()
      .describe("How many passages, best first (default 10)"),
  })
  .strict();
export type TMcpSearchDocumentsInput = z.infer<typeof ZMcpSearchDocumentsInput>;

export const ZMcpSearchDocumentsOutput = z.object({ passages: z.array(ZPassage) });
export type TMcpSearchDocumentsOutput = z.infer<typeof ZMcpSearchDocumentsOutput>;
