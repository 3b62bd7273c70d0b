import { SESSION_COOKIE } from "@cohort/contracts";
import type { FastifyReply } from "fastify";

export interface SessionCookieOptions {
  secure: boolean;
  maxAgeDays: number;
}

/**
 * HttpOnly so page scripts never see the token; SameSite=Lax so the cookie rides along on a
 * top-level navigation back from Google but not on cross-site subrequests.
 */
export function setSessionCookie(
  reply: FastifyReply,
  token: string,
  options: SessionCookieOptions,
) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: options.secure,
    maxAge: Math.round(options.maxAgeDays * 86_400),
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean) {
  reply.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "lax", secure });
}
