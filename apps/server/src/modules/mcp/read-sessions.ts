import type {
  TMcpGetSessionOutput,
  TMcpListSessionsOutput,
  TMcpSessionSummary,
  TSession,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import { listRuns } from "../orchestration/run-store";
import { NEWEST_RUN_JOIN } from "../orchestration/session-run-facts";
import { findSessionFor } from "../sessions/find-session";
import { listMessages } from "../sessions/list-messages";
import { listSessions } from "../sessions/list-sessions";
import { sessionUrl } from "./run-team";

const DEFAULT_LIMIT = 20;

function summaryOf(
  app: FastifyInstance,
  session: Pick<TSession, "id" | "title" | "status" | "created_at">,
): TMcpSessionSummary {
  return {
    id: session.id,
    title: session.title,
    status: session.status,
    created_at: session.created_at,
    url: sessionUrl(app, session.id),
  };
}

/**
 * `list_sessions`: the newest sessions of the owner's personal workspace (whose id is the
 * user's), as the dashboard lists them.
 */
export async function listMcpSessions(
  app: FastifyInstance,
  userId: string,
  limit = DEFAULT_LIMIT,
): Promise<TMcpListSessionsOutput> {
  const page = await listSessions(app.db, userId, { page: 1, pageSize: limit }, NEWEST_RUN_JOIN);
  return { sessions: page.sessions.map((s) => summaryOf(app, s)), total: page.total };
}

/**
 * `get_session`: the session's messages and each run's answer, cost and score. A session in
 * a workspace the user is not a member of is "does not exist", as on the web API.
 */
export async function getMcpSession(
  app: FastifyInstance,
  userId: string,
  sessionId: string,
): Promise<TMcpGetSessionOutput> {
  const session = await findSessionFor(app.db, userId, sessionId);
  const [messages, runs] = await Promise.all([
    listMessages(app.db, session.id),
    listRuns(app.db, session.id),
  ]);
  const answers = new Map(messages.map((m) => [m.id, m.content]));
  return {
    session: summaryOf(app, session),
    messages: messages.map(({ id, role, content, created_at }) => ({
      id,
      role,
      content,
      created_at,
    })),
    runs: runs.map((run) => ({
      id: run.id,
      status: run.status,
      answer: run.result_message_id ? (answers.get(run.result_message_id) ?? null) : null,
      credits: run.total_credits,
      critic_score: run.critic_score,
      created_at: run.created_at,
      finished_at: run.finished_at,
    })),
  };
}
