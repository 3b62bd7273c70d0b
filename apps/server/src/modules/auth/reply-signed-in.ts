import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { RequestMeta } from "./auth-deps";
import { setSessionCookie } from "./session-cookie";
import type { SignedIn } from "./sign-up";

export function requestMeta(request: FastifyRequest): RequestMeta {
  return { ip: request.ip, userAgent: request.headers["user-agent"] };
}

/** Signs the browser in (cookie) and hands API clients the same token in the body. */
export function replySignedIn(app: FastifyInstance, reply: FastifyReply, signedIn: SignedIn) {
  setSessionCookie(reply, signedIn.token, {
    secure: app.config.secureCookies,
    maxAgeDays: app.config.sessionMaxDays,
  });
  reply.header("cache-control", "no-store");
  return { success: true as const, token: signedIn.token, user: signedIn.user };
}
