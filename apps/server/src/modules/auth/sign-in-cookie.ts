import { SIGN_IN_COOKIE } from "@cohort/contracts";
import type { FastifyReply } from "fastify";

export interface SignInCookieOptions {
  secure: boolean;
  maxAgeDays: number;
}

/**
 * HttpOnly so page scripts never see the token; SameSite=Lax so the cookie rides along on a
 * top-level navigation back from Google but not on cross-site subrequests.
 */
export function setSignInCookie(reply: FastifyReply, token: string, options: SignInCookieOptions) {
  reply.setCookie(SIGN_IN_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: options.secure,
    maxAge: Math.round(options.maxAgeDays * 86_400),
  });
}

export function clearSignInCookie(reply: FastifyReply, secure: boolean) {
  reply.clearCookie(SIGN_IN_COOKIE, { path: "/", httpOnly: true, sameSite: "lax", secure });
}
