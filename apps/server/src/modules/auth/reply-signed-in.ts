import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { setCsrfSecretCookie } from "../../platform/csrf";
import type { RequestMeta } from "./auth-deps";
import { setDeviceCookie, trustedDeviceId } from "./device-cookie";
import { setSignInCookie } from "./sign-in-cookie";
import type { SignedIn } from "./sign-up";

export function requestMeta(request: FastifyRequest): RequestMeta {
  return { ip: request.ip, userAgent: request.headers["user-agent"] };
}

/** The request's meta for a password sign-in, with the device it comes from if trusted. */
export function loginMeta(app: FastifyInstance, request: FastifyRequest, email: string) {
  const deviceId = trustedDeviceId(request, app.config.cookieSecret, email);
  return { ...requestMeta(request), deviceId };
}

/**
 * Everything a browser gets when it signs in, whichever way: the sign-in cookie, a device
 * cookie for this account (its later sign-ins are not throttled by strangers' failures) and
 * a new CSRF secret, so no token issued before the sign-in works after it.
 */
export function signInBrowser(app: FastifyInstance, reply: FastifyReply, signedIn: SignedIn) {
  const { secureCookies: secure, cookieSecret: key, signInMaxDays } = app.config;
  setSignInCookie(reply, signedIn.token, { secure, maxAgeDays: signInMaxDays });
  setDeviceCookie(reply, { key, email: signedIn.user.email, secure });
  setCsrfSecretCookie(reply, secure);
}

/** Signs the browser in (cookies) and hands API clients the same token in the body. */
export function replySignedIn(app: FastifyInstance, reply: FastifyReply, signedIn: SignedIn) {
  signInBrowser(app, reply, signedIn);
  reply.header("cache-control", "no-store");
  return { success: true as const, token: signedIn.token, user: signedIn.user };
}
