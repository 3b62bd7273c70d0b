import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { CSRF_HEADER, ERROR_CODES, ZCsrfTokenResponse } from "@cohort/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError } from "./errors";

/**
 * CSRF protection for browsers (the validation rules, the API and the error texts): a random secret lives in an HttpOnly
 * cookie, and the token handed out by GET /api/csrf-token is an HMAC of that secret and an
 * issue time. A mutating request must echo a token made for ITS cookie and not older than
 * the token lifetime; a token from another browser, a rotated secret or a forged one fails.
 * Requests authenticated with a Bearer token carry no ambient credentials and are exempt.
 */
export const CSRF_COOKIE = "cohort_csrf";
const TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

declare module "fastify" {
  interface FastifyContextConfig {
    /** false exempts a route (e.g. a signed webhook) from the CSRF check. */
    csrf?: boolean;
  }
}

export interface CsrfOptions {
  key: string;
  secureCookies: boolean;
  now?: () => number;
}

function sign(key: string, secret: string, issuedAt: string): string {
  return createHmac("sha256", key).update(`${secret}.${issuedAt}`).digest("base64url");
}

export function issueCsrfToken(key: string, secret: string, now: number): string {
  const issuedAt = now.toString(36);
  return `${issuedAt}.${sign(key, secret, issuedAt)}`;
}

export function verifyCsrfToken(
  key: string,
  secret: string | undefined,
  token: string | undefined,
  now: number,
): boolean {
  if (!secret || !token) return false;
  const [issuedAt, mac] = token.split(".");
  if (!issuedAt || !mac) return false;
  const issued = Number.parseInt(issuedAt, 36);
  if (!Number.isFinite(issued) || now - issued > TOKEN_TTL_MS || issued - now > 60_000)
    return false;
  const expected = Buffer.from(sign(key, secret, issuedAt));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function hasBearer(request: FastifyRequest): boolean {
  return /^Bearer\s+\S/i.test(request.headers.authorization ?? "");
}

/** A browser's navigation to a page (not an API call, an asset or a bot's bare GET). */
function wantsPage(request: FastifyRequest): boolean {
  return !request.url.startsWith("/api/") && (request.headers.accept ?? "").includes("text/html");
}

export function setCsrfSecretCookie(reply: FastifyReply, secure: boolean): string {
  const secret = randomBytes(32).toString("base64url");
  reply.setCookie(CSRF_COOKIE, secret, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure,
  });
  return secret;
}

export function registerCsrf(app: FastifyInstance, options: CsrfOptions): void {
  const now = options.now ?? Date.now;

  // Decided on the matched route, never on the raw URL: the router decodes and normalises
  // the path (`/%61pi/…` reaches `/api/…`), so a prefix test on `request.url` can be skipped.
  // Every mutating method on every route is checked; only an unmatched path (it does nothing)
  // and routes that opt out (signed webhooks) are not.
  // Callback style, not async: a GET, the common case, leaves without a promise.
  app.addHook("onRequest", (request, reply, done) => {
    if (request.method === "GET" && !request.cookies[CSRF_COOKIE] && wantsPage(request)) {
      // A page's document brings the browser its CSRF secret, so the page's first requests,
      // sent at once, all ask for tokens of that one secret: were the first token requests to
      // set it, each would set its own and all but the last one's tokens would be refused.
      setCsrfSecretCookie(reply, options.secureCookies);
      return done();
    }
    if (!MUTATING.has(request.method) || request.is404) return done();
    if (request.routeOptions.config.csrf === false || hasBearer(request)) return done();
    const header = request.headers[CSRF_HEADER];
    const token = Array.isArray(header) ? header[0] : header;
    if (verifyCsrfToken(options.key, request.cookies[CSRF_COOKIE], token, now())) return done();
    done(
      new AppError(
        ERROR_CODES.csrfInvalid,
        403,
        "Invalid or missing CSRF token. Fetch a new one from /api/csrf-token and retry.",
      ),
    );
  });

  app.withTypeProvider<ZodTypeProvider>().get(
    "/api/csrf-token",
    {
      schema: {
        tags: ["platform"],
        summary: "Issue a CSRF token for this browser",
        response: { 200: ZCsrfTokenResponse },
      },
    },
    async (request, reply) => {
      const secret =
        request.cookies[CSRF_COOKIE] ?? setCsrfSecretCookie(reply, options.secureCookies);
      reply.header("cache-control", "no-store");
      return { csrfToken: issueCsrfToken(options.key, secret, now()) };
    },
  );
}
