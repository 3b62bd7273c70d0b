import { AUTH_MESSAGES, ERROR_CODES } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { Socket } from "socket.io";
import { readSignInToken } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { signInRoom, userRoom } from "../../platform/realtime-rooms";
import { findEndedSignIns } from "./find-ended-sign-ins";

export interface SocketAuthData {
  user: { id: string; email: string; displayName: string; role: string };
  signInId: string;
}

/**
 * Socket handshake authentication (the API: "authenticated with a token"): `auth.token` from
 * the client, else the sign-in cookie the browser sends with the polling request. A refused
 * socket gets a connect_error whose data.code is 'unauthorized'.
 */
export function registerSocketAuth(app: FastifyInstance): void {
  app.realtime.useHandshake(async (socket: Socket) => {
    const auth = socket.handshake.auth as { token?: unknown };
    const given = typeof auth.token === "string" && auth.token !== "" ? auth.token : undefined;
    const cookieHeader = socket.handshake.headers.cookie;
    const token = given
      ? given
      : readSignInToken(undefined, cookieHeader ? app.parseCookie(cookieHeader) : {});
    const principal = token ? await app.resolveSignIn(token) : null;
    if (!principal) throw new AppError(ERROR_CODES.unauthorized, 401, AUTH_MESSAGES.unauthorized);
    const { user } = principal;
    const data: SocketAuthData = {
      user: { id: user.id, email: user.email, displayName: user.displayName, role: user.role },
      signInId: principal.signInId,
    };
    Object.assign(socket.data, data);
  });
  app.realtime.onConnection((socket) => {
    const data = socket.data as SocketAuthData;
    socket.join([userRoom(data.user.id), signInRoom(data.signInId)]);
    // A revocation that commits while this handshake is in flight drops the sign-in's room
    // before this socket is in it. Checking again once it is in the room closes that gap:
    // either the drop finds the socket, or this check finds the revocation.
    findEndedSignIns(app.db, [data.signInId]).then(
      (ended) => {
        if (ended.length > 0) socket.disconnect(true);
      },
      (error: unknown) => app.log.warn({ err: error }, "socket sign-in re-check failed"),
    );
  });
}

/**
 * Revocation drops a sign-in's sockets at once (drop-sign-in-sockets.ts); a sign-in that
 * simply runs out of time has no such moment, so each instance re-checks the sign-ins
 * behind its own open sockets every SOCKET_SIGN_IN_CHECK_MS and drops the ended ones.
 */
export function watchSocketSignIns(app: FastifyInstance): void {
  const check = async () => {
    const sockets = [...app.realtime.io.of("/").sockets.values()];
    const ids = new Set(sockets.map((socket) => (socket.data as SocketAuthData).signInId));
    const ended = new Set(await findEndedSignIns(app.db, [...ids]));
    for (const socket of sockets) {
      if (ended.has((socket.data as SocketAuthData).signInId)) socket.disconnect(true);
    }
  };
  const timer = setInterval(() => {
    check().catch((error: unknown) => app.log.warn({ err: error }, "socket sign-in check failed"));
  }, app.config.socketSignInCheckMs);
  timer.unref();
  app.addHook("preClose", async () => clearInterval(timer));
}
