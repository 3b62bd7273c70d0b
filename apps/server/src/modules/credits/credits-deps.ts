import { SERVER_EVENTS, type TCreditsChanged } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client";
import type { Realtime } from "../../platform/realtime";
import { userRoom } from "../../platform/realtime-rooms";

/** One change of a user's balance or holds, in credits, as the user's sockets receive it. */
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

export function publishToSockets(realtime: Realtime): CreditsDeps["publish"] {
  return (changes) => {
    for (const { userId, ...event } of changes) {
      realtime.io.to(userRoom(userId)).emit(SERVER_EVENTS.creditsChanged, event);
    }
  };
}

export function creditsDeps(app: FastifyInstance): CreditsDeps {
  return {
    db: app.db,
    holdTtlMs: app.config.billing.holdTtlMs,
    publish: publishToSockets(app.realtime),
  };
}
