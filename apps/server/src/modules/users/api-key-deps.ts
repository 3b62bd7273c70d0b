import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client";
import type { SsrfGuard } from "../../platform/ssrf";
import type { KeyRing } from "./api-key-crypto";

/** What the provider-key services need from the app, so they stay plain functions. */
export interface ApiKeyDeps {
  db: Db;
  keyRing: KeyRing;
  /** Checks and calls the base URLs users give (openai-compatible). */
  ssrf: SsrfGuard;
  log?: { warn(details: object, message: string): void };
}

export function apiKeyDeps(app: FastifyInstance): ApiKeyDeps {
  return {
    db: app.db,
    keyRing: { current: app.config.encryptionKey, previous: app.config.previousEncryptionKeys },
    ssrf: app.ssrf,
    log: app.log,
  };
}
