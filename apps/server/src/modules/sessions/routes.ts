import {
  ERROR_CODES,
  type TRun,
  type TRunToolCall,
  ZCreateSessionRequest,
  ZDeleteSessionResponse,
  ZSessionDetailQuery,
  ZSessionDetailResponse,
  ZSessionResponse,
  ZSessionRunsQuery,
  ZSessionRunsResponse,
  ZSessionsQuery,
  ZSessionsResponse,
  ZUpdateSessionRequest,
  ZUpdateSessionStatusRequest,
} from "@cohort/contracts";
import type { FastifyInstance, FastifyReply } from "fastify";
import { serializerCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { currentPrincipalRiding } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { requireAgreement } from "../agreements/require-agreement";
import { checkToolSettings } from "../tools/check-tool-settings";
import { requireWorkspaceAccess } from "../workspaces/workspace-access";
import { checkModelChoices } from "./check-model-choices";
import { checkToolPolicy } from "./check-tool-policy";
import { createSession } from "./create-session";
import { deleteSession } from "./delete-session";
import { findSessionFor, requireSessionDeletable } from "./find-session";
import { listMessages } from "./list-messages";
import { listSessions, pageParams, personalPageRider, readPage, readRidden } from "./list-sessions";
import { createPageAnswers } from "./page-answers";
import { type NewestRun, newestOf, withActivity } from "./session-activity";
import { type StoredSession, toStoredSession } from "./session-row";
import { setSessionStatus } from "./set-session-status";
import { updateSession } from "./update-session";

const tags = ["sessions"];
const params = z.object({ id: z.string() });

/**
 * What these routes need from the run engine. The engine builds on sessions (it adds their
 * messages and reads their settings), so it is passed in at registration instead of imported
 * back, which would make the two modules a loop.
 */
export interface SessionRuns {
  /** The newest stored event's seq of the session (0 before its first). */
  lastEventSeq(sessionId: string): Promise<number>;
  /** The session's runs with their plans, steps and costs, oldest first. */
  list(sessionId: string): Promise<TRun[]>;
  /** The same, with only the newest `full` in full and the older ones as outlines (decision 077). */
  listPaged(sessionId: string, full: number): Promise<TRun[]>;
  /** Up to `limit` runs just older than run `before`, in full; null: `before` is not the session's. */
  listBefore(
    sessionId: string,
    before: string,
    limit: number,
  ): Promise<{ runs: TRun[]; earlier: boolean } | null>;
  /** The session's tool calls by run id, in order, from their stored events (decision 058). */
  toolCalls(sessionId: string): Promise<Map<string, TRunToolCall[]>>;
  /** Stops the session's active run, if any. */
  stopActive(sessionId: string): Promise<void>;
  /**
   * Erases the files its runs made (pictures, run_code's files): rows and bytes, before the
   * session goes, since the rows would cascade and leave the bytes behind (decision 076).
   */
  eraseFiles(sessionId: string): Promise<void>;
  /** Each session's newest run (sessions without runs are left out). */
  newest(sessionIds: readonly string[]): Promise<Map<string, NewestRun>>;
  /** The same as a part of the sessions page statement: joins `sessions` to `newest_run_*`. */
  newestRunJoin: string;
}

/**
 * Sessions (the data model and the API). Each belongs to a workspace (decision 040): its members read it
 * (viewer+) and change it (member+); anyone else gets 404.
 */
export async function sessionRoutes(app: FastifyInstance, options: { runs: SessionRuns }) {
  const { runs: sessionRuns } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const catalogue = app.models.catalogue;
  const pageRider = personalPageRider(sessionRuns.newestRunJoin);
  // The page's answer is what the route's serializer (zod's check, then JSON.stringify, as
  // every route's) makes of it, made once per page text and kept (decision 088).
  const pageAnswers = createPageAnswers(
    serializerCompiler({ schema: ZSessionsResponse, method: "GET", url: "/api/sessions" }),
  );
  /** The session as the API shows it: with what it is doing now (decision 032). */
  const shown = async (session: StoredSession) =>
    withActivity(session, (await sessionRuns.newest([session.id])).get(session.id));

  r.post(
    "/api/sessions",
    {
      schema: {
        tags,
        summary: "Create a session with its coordinator model and agent team",
        body: ZCreateSessionRequest,
        response: { 201: ZSessionResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireAgreement(request);
      const access = await requireWorkspaceAccess(
        app.db,
        user.id,
        request.body.workspace_id,
        "member",
      );
      checkModelChoices(catalogue, request.body);
      checkToolPolicy(access.role, request.body.tools?.policy);
      await checkToolSettings(
        app.tools,
        { userId: user.id, workspaceId: access.workspaceId },
        request.body.tools,
      );
      const session = await createSession(app.db, user.id, {
        ...request.body,
        workspace_id: access.workspaceId,
      });
      return reply.status(201).send({ session: withActivity(session, undefined) });
    },
  );

  r.get(
    "/api/sessions",
    {
      schema: {
        tags,
        summary:
          "A workspace's sessions (the caller's personal one by default), newest first, a page at a time; q searches the titles",
        querystring: ZSessionsQuery,
        response: { 200: ZSessionsResponse },
      },
    },
    async (request, reply) => {
      const { query } = request;
      // One's own page (the default) rides on the sign-in's statement: one statement, with
      // every guard below deciding exactly as before (decision 084). It is conditional on the
      // page's version this sign-in's last answer was made of (decision 089).
      let signInKey = "";
      const ridden =
        query.workspace_id === undefined
          ? currentPrincipalRiding(request, pageRider, (key) => {
              signInKey = `sign-in:${key}`;
              return [...pageParams(query), pageAnswers.versionOf(signInKey)];
            })
          : undefined;
      const { user } = await requireAgreement(request);
      const access = await requireWorkspaceAccess(app.db, user.id, query.workspace_id);
      const { newestRunJoin } = sessionRuns;
      let key = signInKey;
      let version: string | null = null;
      let text: string | null = null;
      if (ridden === undefined) {
        key = `user:${user.id}`;
        text = await readPage(app.db, access.workspaceId, query, newestRunJoin);
        version = text;
      } else {
        const page = readRidden(await ridden);
        if (page !== null) {
          version = page.version;
          text = page.text ?? pageAnswers.textOf(key, page.version) ?? null;
          if (text === null) {
            // The kept page went (another page asked meanwhile, or memory's bound): read it
            // apart, and keep nothing of this answer.
            version = null;
            text = await readPage(app.db, access.workspaceId, query, newestRunJoin);
          }
        }
      }
      // The route's own serializer's answer, made once per page (decisions 088 and 089).
      const json = await pageAnswers.answer(key, version, text, query, (now) =>
        listSessions(app.db, access.workspaceId, query, newestRunJoin, text, now),
      );
      reply.header("cache-control", "no-store");
      // A JSON text with its JSON content type is sent as it is: the serializer already ran.
      reply.header("content-type", "application/json; charset=utf-8");
      const sent: FastifyReply = reply;
      return sent.send(json);
    },
  );

  r.get(
    "/api/sessions/:id",
    {
      schema: {
        tags,
        summary:
          "A session with its messages and runs (plans, steps, costs), oldest first; with `runs=N`, only the newest N runs in full and the older ones as outlines (read them with GET /api/sessions/{id}/runs)",
        params,
        querystring: ZSessionDetailQuery,
        response: { 200: ZSessionDetailResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireAgreement(request);
      const session = toStoredSession(await findSessionFor(app.db, user.id, request.params.id));
      const full = request.query.runs;
      // The seq first: events that land while the rest is read are replayed, not missed.
      const last_seq = await sessionRuns.lastEventSeq(session.id);
      const [messages, stored, toolCalls] = await Promise.all([
        listMessages(app.db, session.id),
        full === undefined ? sessionRuns.list(session.id) : sessionRuns.listPaged(session.id, full),
        sessionRuns.toolCalls(session.id),
      ]);
      const runs = withToolCalls(stored, toolCalls);
      reply.header("cache-control", "no-store");
      return { session: withActivity(session, newestOf(runs)), messages, runs, last_seq };
    },
  );

  r.get(
    "/api/sessions/:id/runs",
    {
      schema: {
        tags,
        summary:
          "A page of the session's runs in full, oldest first: up to `limit` just older than the run `before`; `earlier` says whether older ones remain (404 for a run not of this session)",
        params,
        querystring: ZSessionRunsQuery,
        response: { 200: ZSessionRunsResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireAgreement(request);
      const session = await findSessionFor(app.db, user.id, request.params.id);
      const { before, limit } = request.query;
      const [page, toolCalls] = await Promise.all([
        sessionRuns.listBefore(session.id, before, limit),
        sessionRuns.toolCalls(session.id),
      ]);
      if (!page) throw new AppError(ERROR_CODES.notFound, 404, "This run does not exist.");
      reply.header("cache-control", "no-store");
      return { runs: withToolCalls(page.runs, toolCalls), earlier: page.earlier };
    },
  );

  r.put(
    "/api/sessions/:id/status",
    {
      schema: {
        tags,
        summary:
          "Change the status (active, paused, completed, archived); 409 for a change the rules forbid. Leaving active stops a running task.",
        params,
        body: ZUpdateSessionStatusRequest,
        response: { 200: ZSessionResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      const session = await setSessionStatus(
        app.db,
        user.id,
        request.params.id,
        request.body.status,
      );
      if (session.status !== "active") await sessionRuns.stopActive(session.id);
      return { session: await shown(session) };
    },
  );

  r.patch(
    "/api/sessions/:id",
    {
      schema: {
        tags,
        summary: "Rename, describe, change the budget or the team; fields left out stay",
        params,
        body: ZUpdateSessionRequest,
        response: { 200: ZSessionResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      const current = await findSessionFor(app.db, user.id, request.params.id, {
        least: "member",
      });
      const changes = request.body;
      checkModelChoices(catalogue, {
        coordinator_model: changes.coordinator_model ?? current.coordinator_model,
        manual_agent_selection: changes.manual_agent_selection ?? current.manual_agent_selection,
        agent_preferences:
          changes.agent_preferences !== undefined
            ? changes.agent_preferences
            : current.agent_preferences,
      });
      checkToolPolicy(current.role, changes.tools?.policy, current.tools.policy);
      await checkToolSettings(
        app.tools,
        { userId: user.id, workspaceId: current.workspace_id },
        changes.tools,
        current.tools,
      );
      const session = await updateSession(app.db, current.id, changes);
      return { session: await shown(session) };
    },
  );

  r.delete(
    "/api/sessions/:id",
    {
      schema: {
        tags,
        summary: "Delete a session with its messages, runs and events (a running task is stopped)",
        params,
        response: { 200: ZDeleteSessionResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      const session = await findSessionFor(app.db, user.id, request.params.id);
      requireSessionDeletable(session, user.id);
      await sessionRuns.stopActive(session.id);
      await sessionRuns.eraseFiles(session.id);
      await deleteSession(app.db, session.id);
      return { deleted: true as const };
    },
  );
}

/** A finished run's tool rows come back with it (decision 058); a running one replays them. */
function withToolCalls(runs: TRun[], toolCalls: Map<string, TRunToolCall[]>): TRun[] {
  return runs.map((run) => {
    const calls = run.outline ? undefined : toolCalls.get(run.id);
    return calls ? { ...run, tool_calls: calls } : run;
  });
}
