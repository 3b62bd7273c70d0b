import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";

/**
 * Security headers for everything we serve. The SPA is built without inline scripts, so
 * scripts are limited to our own origin; styles allow inline attributes, which the UI
 * primitives set for positioning.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: { secure: boolean; websocket: boolean },
) {
  await app.register(helmet, {
    global: true,
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
  });
}
