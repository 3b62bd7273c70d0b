import { SERVER_EVENTS, type TCreditsChanged } from "@cohort/contracts";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Db } from "../../db/client";
import type { Realtime } from "../../platform/realtime";
import { userRoom } from "../../platform/realtime-rooms";

/**
 * One change of an account's balance or holds, in credits, as its sockets receive it.
 * `userId` is the account; a team workspace's pool has `workspace_id` set as well, and
 * reaches every member of the workspace.
 */
export interface CreditChange extends TCreditsChanged {
  userId: string;
}

/** What the credits services need from the app, so they stay plain functions (and benchable). */
export interface CreditsDeps {
  db: Db;
  holdTtlMs: number;
  /** Told about changes after their transaction committed, never before. */
  publish: (changes: readonly CreditChange[]) => void;
}

/**
 * Where pooled changes find their audience: the ids of the team's members, read when they
 * happen (the workspaces module's lookup, given by the app: credits does not import it).
 */
export interface PoolAudience {
  members(workspaceId: string): Promise<readonly string[]>;
  log: FastifyBaseLogger;
}

/**
 * The tail of each server's chain of pool publications. One per realtime server, not one per
 * publisher: every module (an admin's adjustment, a run's hold, a purchase) makes its own
 * CreditsDeps, and separate chains would let a later change overtake an earlier one.
 */
const poolChains = new WeakMap<Realtime, { tail: Promise<void> }>();

/**
 * A personal account's change goes to its user's sockets at once. A pool's change goes to
 * every member's sockets, once the members are read; the reads are chained (one chain per
 * server), so the members receive a pool's changes in the order they were published, the
 * last one being the balance now.
 */
export function publishToSockets(realtime: Realtime, pool?: PoolAudience): CreditsDeps["publish"] {
  let chain = poolChains.get(realtime);
  if (!chain) {
    chain = { tail: Promise.resolve() };
    poolChains.set(realtime, chain);
  }
  const pooled = chain;
  return (changes) => {
    for (const { userId, ...event } of changes) {
      if (event.workspace_id === undefined) {
        realtime.io.to(userRoom(userId)).emit(SERVER_EVENTS.creditsChanged, event);
        continue;
      }
      if (!pool) continue;
      const workspaceId = event.workspace_id;
      pooled.tail = pooled.tail
        .then(() => pool.members(workspaceId))
        .then((members) => {
          const rooms = members.map((memberId) => userRoom(memberId));
          if (rooms.length > 0) realtime.io.to(rooms).emit(SERVER_EVENTS.creditsChanged, event);
        })
        .catch((error: unknown) => {
          pool.log.warn({ err: error, workspaceId }, "pool credit change not published");
        });
    }
  };
}

export function creditsDeps(app: FastifyInstance): CreditsDeps {
  return {
    db: app.db,
    holdTtlMs: app.config.billing.holdTtlMs,
    publish: publishToSockets(app.realtime, { members: app.workspaceMemberIds, log: app.log }),
  };
}
