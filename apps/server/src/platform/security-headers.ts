import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet, { type HelmetOptions } from "helmet";

export interface SecurityHeaderOptions {
  secure: boolean;
  websocket: boolean;
}

/**
 * Security headers for everything we serve. The SPA is built without inline scripts, so
 * scripts are limited to our own origin; styles allow inline attributes, which the UI
 * primitives set for positioning.
 */
function helmetOptions(options: SecurityHeaderOptions): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: options.websocket ? ["'self'", "ws:", "wss:"] : ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(options.secure ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: options.secure ? { maxAge: 15_552_000 } : false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  };
}

/**
 * The headers helmet writes for these options. Helmet (and @fastify/helmet around it) builds
 * its middleware, CSP parsing included, on every request; with no per-request part (no nonces,
 * no per-route policies) the answer is always the same, so it is asked once, at start-up.
 */
export function computeSecurityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown = null;
  helmet(helmetOptions(options))(
    {} as IncomingMessage,
    response as unknown as ServerResponse,
    (error?: unknown) => {
      failure = error ?? null;
    },
  );
  if (failure) throw failure;
  return headers;
}

export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions) {
  const headers = computeSecurityHeaders(options);
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
