import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * OWASP's device cookie: after a correct password, the browser gets a cookie signed for that
 * account. A later sign-in to the same account that presents it is throttled on its own
 * budget, so strangers' failed guesses never lock out a person on a device they have used.
 */
export const DEVICE_COOKIE = "cohort_device";
const MAX_AGE_S = 365 * 86_400;

function mac(key: string, email: string, nonce: string): string {
  return createHmac("sha256", key)
    .update(`device.${email.toLowerCase()}.${nonce}`)
    .digest("base64url");
}

/** The device's id when the request carries a device cookie signed for this email. */
export function trustedDeviceId(request: FastifyRequest, key: string, email: string) {
  const value = request.cookies[DEVICE_COOKIE];
  const [nonce, given] = value?.split(".") ?? [];
  if (!nonce || !given) return null;
  const expected = Buffer.from(mac(key, email, nonce));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? nonce : null;
}

export function setDeviceCookie(
  reply: FastifyReply,
  options: { key: string; email: string; secure: boolean },
) {
  const nonce = randomBytes(16).toString("base64url");
  reply.setCookie(DEVICE_COOKIE, `${nonce}.${mac(options.key, options.email, nonce)}`, {
    path: "/api/",
    httpOnly: true,
    sameSite: "strict",
    secure: options.secure,
    maxAge: MAX_AGE_S,
  });
}
