import { AUTH_MESSAGES, ERROR_CODES } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { Socket } from "socket.io";
import { readSessionToken } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { sessionRoom, userRoom } from "./drop-session-sockets";

export interface SocketAuthData {
  user: { id: string; email: string; displayName: string; role: string };
  sessionId: string;
}

/**
 * Socket handshake authentication (spec §7: "authenticated with a token"): `auth.token` from
 * the client, else the session cookie the browser sends with the polling request. A refused
 * socket gets a connect_error whose data.code is 'unauthorized'.
 */
export function registerSocketAuth(app: FastifyInstance): void {
  app.realtime.useHandshake(async (socket: Socket) => {
    const auth = socket.handshake.auth as { token?: unknown };
    const given = typeof auth.token === "string" && auth.token !== "" ? auth.token : undefined;
    const cookieHeader = socket.handshake.headers.cookie;
    const token = given
      ? given
      : readSessionToken(undefined, cookieHeader ? app.parseCookie(cookieHeader) : {});
    const principal = token ? await app.resolveSession(token) : null;
    if (!principal) throw new AppError(ERROR_CODES.unauthorized, 401, AUTH_MESSAGES.unauthorized);
    const { user } = principal;
    const data: SocketAuthData = {
      user: { id: user.id, email: user.email, displayName: user.displayName, role: user.role },
      sessionId: principal.sessionId,
    };
    Object.assign(socket.data, data);
  });
  app.realtime.onConnection((socket) => {
    const data = socket.data as SocketAuthData;
    socket.join([userRoom(data.user.id), sessionRoom(data.sessionId)]);
  });
}
