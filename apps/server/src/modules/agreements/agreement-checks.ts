import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import type { Queryable } from "../../db/client";
import { type AgreementVersion, getCurrentVersion } from "./get-current-agreement";
import { hasDecidedAgreement } from "./has-decided-agreement";

/**
 * What every product call asks (decision 016): which version is current, and has this user
 * decided on it. Both answers are kept in memory, because they almost never change:
 * - the current version (id, number, allow-decline; never the text) for `VERSION_TTL_MS`, and
 *   forgotten at once when this instance publishes one, and within a Redis round trip when
 *   another does (with REDIS_URL). Without Redis, several instances see a new version within
 *   `VERSION_TTL_MS`; the embedded default is one instance.
 * - a user's decision on a version, but only a positive one: a decision is never withdrawn
 *   (acceptances and declines are append-only), so it cannot go stale, and a new version
 *   has a new id, so the next call after a publish asks the database again.
 * Negative answers are never kept, so an acceptance counts at once on every instance.
 */
export interface AgreementChecks {
  currentVersion(): Promise<AgreementVersion | null>;
  hasDecided(userId: string, agreement: AgreementVersion): Promise<boolean>;
  /** After a publish: every instance forgets the current version. */
  published(): Promise<void>;
  close(): Promise<void>;
}

/** Short enough that instances without Redis agree within a second; costs one query a second. */
export const VERSION_TTL_MS = 1_000;
/** Users whose decision is remembered; beyond this the oldest entries are dropped. */
const MAX_REMEMBERED_USERS = 50_000;

declare module "fastify" {
  interface FastifyInstance {
    agreementChecks: AgreementChecks;
  }
}

export interface AgreementChecksDeps {
  db: Queryable;
  log: FastifyBaseLogger;
  redis?: Redis | undefined;
  /** Redis channel on which instances announce a publish. */
  channel: string;
}

export function createAgreementChecks(deps: AgreementChecksDeps): AgreementChecks {
  let cached: { version: AgreementVersion | null; readAt: number } | null = null;
  let loading: Promise<AgreementVersion | null> | null = null;
  // A read that started before a publish must not store what it read after the publish.
  let generation = 0;
  const decided = new Map<string, string>();

  const forget = () => {
    generation += 1;
    cached = null;
    loading = null;
  };

  const load = () => {
    const started = generation;
    const read: Promise<AgreementVersion | null> = getCurrentVersion(deps.db)
      .then((version) => {
        if (generation === started) cached = { version, readAt: Date.now() };
        return version;
      })
      .finally(() => {
        if (loading === read) loading = null;
      });
    loading = read;
    return read;
  };

  const subscriber = deps.redis?.duplicate({
    connectionName: "cohort:agreements",
    enableReadyCheck: false,
  });
  if (subscriber) {
    subscriber.on("error", () => {});
    subscriber.on("message", (channel: string) => {
      if (channel === deps.channel) forget();
    });
    void subscriber.subscribe(deps.channel).catch((error: unknown) => {
      deps.log.error({ err: error }, "could not subscribe to agreement publishes");
    });
  }

  return {
    currentVersion() {
      if (cached && Date.now() - cached.readAt < VERSION_TTL_MS) {
        return Promise.resolve(cached.version);
      }
      return loading ?? load();
    },
    async hasDecided(userId, agreement) {
      if (decided.get(userId) === agreement.id) return true;
      if (!(await hasDecidedAgreement(deps.db, userId, agreement.id))) return false;
      if (decided.size >= MAX_REMEMBERED_USERS) {
        const oldest = decided.keys().next().value;
        if (oldest !== undefined) decided.delete(oldest);
      }
      decided.set(userId, agreement.id);
      return true;
    },
    async published() {
      forget();
      // The version is stored already: a lost announcement must not fail the publish; other
      // instances then pick the version up within VERSION_TTL_MS.
      await deps.redis?.publish(deps.channel, "published").catch((error: unknown) => {
        deps.log.warn({ err: error }, "could not announce an agreement publish");
      });
    },
    async close() {
      await subscriber?.quit().catch(() => undefined);
    },
  };
}

/** One set of checks per app (tests build many apps in one process, each on its own data). */
export function registerAgreementChecks(app: FastifyInstance, options: { redisPrefix: string }) {
  const checks = createAgreementChecks({
    db: app.db,
    log: app.log,
    redis: app.redis,
    channel: `${options.redisPrefix}agreements:published`,
  });
  app.decorate("agreementChecks", checks);
  app.addHook("onClose", () => checks.close());
}
