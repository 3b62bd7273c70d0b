import {
  CLIENT_EVENTS,
  JOIN_BACKLOG_LIMIT,
  SERVER_EVENTS,
  type TJoinSessionAck,
  type TLeaveSessionAck,
  ZJoinSessionRequest,
  ZLeaveSessionRequest,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import { chatRoom, workspaceMemberRoom } from "../../platform/realtime-rooms";
import type { SocketAuthData } from "../auth/authenticate-socket";
import { findSessionFor } from "../sessions/find-session";
import type { OwnedSession } from "../sessions/session-row";
import { lastEventSeq, readRunEvents, runEventAt } from "./run-events";

type Ack<T> = (reply: T) => void;

/**
 * `join-session` / `leave-session` (the API). Joining puts the socket in the session's room
 * FIRST and reads the backlog after (in-flight events, then stored ones: run-events.ts), so
 * every event is in the backlog, live, or both — never neither; the client drops repeats by
 * seq (`takeNewEvents`). Any member of the session's workspace may join (viewers too: they
 * read); anyone else gets `not_found`, as over HTTP. The socket also joins the member's room
 * of that workspace, through which removing the member (or lowering the role) reaches it at
 * once (decision 040). A client that names the `at` of its last event and holds another one
 * under that number than this server (events sent, then lost in a crash before they were
 * stored) is told `rewound`, and reads the session again (decision 048).
 */
export function registerSessionSockets(app: FastifyInstance): void {
  app.realtime.onConnection((socket) => {
    const { user } = socket.data as SocketAuthData;

    socket.on(CLIENT_EVENTS.joinSession, async (payload: unknown, ack?: Ack<TJoinSessionAck>) => {
      const reply = typeof ack === "function" ? ack : undefined;
      const parsed = ZJoinSessionRequest.safeParse(payload);
      if (!parsed.success) {
        reply?.({ ok: false, error: "invalid_request" });
        return;
      }
      const { sessionId, lastSeq = 0, lastAt } = parsed.data;
      let session: OwnedSession;
      try {
        session = await findSessionFor(app.db, user.id, sessionId);
      } catch {
        reply?.({ ok: false, error: "not_found" });
        return;
      }
      const rooms = [chatRoom(sessionId), workspaceMemberRoom(session.workspaceId, user.id)];
      await socket.join(rooms);
      // A removal that committed between the check and the join found no socket in the
      // member's room to drop: checked again now that the socket is in it.
      try {
        await findSessionFor(app.db, user.id, sessionId);
      } catch {
        for (const room of rooms) await socket.leave(room);
        reply?.({ ok: false, error: "not_found" });
        return;
      }
      try {
        const deps = app.orchestration.deps;
        if (lastAt !== undefined && lastSeq > 0) {
          if ((await runEventAt(deps, sessionId, lastSeq)) !== lastAt) {
            const newest = await lastEventSeq(deps, sessionId);
            if (reply)
              reply({ ok: true, backlog: [], lastSeq: newest, hasMore: false, rewound: true });
            return;
          }
        }
        const page = await readRunEvents(
          app.orchestration.deps,
          sessionId,
          lastSeq,
          JOIN_BACKLOG_LIMIT,
        );
        if (reply) {
          reply({ ok: true, backlog: page.events, lastSeq: page.last_seq, hasMore: page.has_more });
        } else {
          for (const event of page.events) socket.emit(SERVER_EVENTS.runEvent, event);
        }
      } catch (error) {
        app.log.error({ err: error, sessionId }, "join-session backlog failed");
        await socket.leave(chatRoom(sessionId));
        reply?.({ ok: false, error: "unavailable" });
      }
    });

    socket.on(CLIENT_EVENTS.leaveSession, async (payload: unknown, ack?: Ack<TLeaveSessionAck>) => {
      const parsed = ZLeaveSessionRequest.safeParse(payload);
      if (parsed.success) await socket.leave(chatRoom(parsed.data.sessionId));
      if (typeof ack === "function") ack({ ok: parsed.success });
    });
  });
}
