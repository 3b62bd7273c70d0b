import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet, { type HelmetOptions } from "helmet";

export interface SecurityHeaderOptions {
  secure: boolean;
  websocket: boolean;
  /**
   * The identity provider's popup sign-in, when configured: the Firebase web SDK loads
   * Google's gapi loader, embeds the auth domain's (or the emulator's) helper frame and calls
   * the Identity Toolkit and Secure Token APIs (or the emulator).
   */
  firebase?: { authDomain: string; emulatorUrl: string | null } | undefined;
}

function firebaseSources(firebase: SecurityHeaderOptions["firebase"]) {
  if (!firebase) return { script: [], frame: [], connect: [] };
  const emulator = firebase.emulatorUrl ? [firebase.emulatorUrl] : [];
  return {
    script: ["https://apis.google.com"],
    frame: [`https://${firebase.authDomain}`, ...emulator],
    connect: [
      "https://identitytoolkit.googleapis.com",
      "https://securetoken.googleapis.com",
      ...emulator,
    ],
  };
}

/**
 * Security headers for everything we serve. The SPA is built without inline scripts, so
 * scripts are limited to our own origin; styles allow inline attributes, which the UI
 * primitives set for positioning.
 */
function helmetOptions(options: SecurityHeaderOptions): HelmetOptions {
  const firebase = firebaseSources(options.firebase);
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...firebase.script],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Profile photos (photoURL) live at the identity providers and wherever users host them.
        imgSrc: ["'self'", "data:", "blob:", "https:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'", ...(options.websocket ? ["ws:", "wss:"] : []), ...firebase.connect],
        ...(firebase.frame.length > 0 ? { frameSrc: ["'self'", ...firebase.frame] } : {}),
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(options.secure ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: options.secure ? { maxAge: 15_552_000 } : false,
    crossOriginEmbedderPolicy: false,
    // The identity provider's popup reports back through window.opener, which "same-origin"
    // would sever (Firebase documents same-origin-allow-popups for signInWithPopup).
    crossOriginOpenerPolicy: {
      policy: options.firebase ? "same-origin-allow-popups" : "same-origin",
    },
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
