import type { Redis } from "ioredis";

/**
 * Wakes the lane waiting for an approval as soon as it is decided, wherever the decision is
 * made (decision 059): in this process directly, on other instances through Redis pub/sub
 * (the way run stops travel, `run-control.ts`). The decision itself is in the database, so a
 * missed wake only delays the lane until its next look at the row.
 */
export interface ApprovalWaiters {
  /** Resolves when `notify(approvalId)` is called here or on another instance. */
  wake(approvalId: string, signal: AbortSignal): { promise: Promise<void>; cancel(): void };
  notify(approvalId: string): void;
  close(): Promise<void>;
}

export function createApprovalWaiters(options: {
  redis?: { pub: Redis; channel: string } | undefined;
  log: { warn(details: object, message: string): void };
}): ApprovalWaiters {
  const { redis, log } = options;
  const waiting = new Map<string, Set<() => void>>();
  const wakeLocal = (approvalId: string) => {
    const set = waiting.get(approvalId);
    if (!set) return;
    waiting.delete(approvalId);
    for (const resolve of set) resolve();
  };

  let subscriber: Redis | undefined;
  if (redis) {
    subscriber = redis.pub.duplicate({
      connectionName: "cohort:approvals",
      enableReadyCheck: false,
    });
    subscriber.on("error", () => {});
    subscriber.on("message", (channel: string, message: string) => {
      if (channel !== redis.channel) return;
      const approvalId = (JSON.parse(message) as { approvalId?: string }).approvalId;
      if (approvalId) wakeLocal(approvalId);
    });
    void subscriber.subscribe(redis.channel).catch((error: unknown) => {
      log.warn({ err: error }, "could not subscribe to approval decisions");
    });
  }

  return {
    wake(approvalId, signal) {
      let resolver: (() => void) | undefined;
      const promise = new Promise<void>((resolve) => {
        resolver = resolve;
        const set = waiting.get(approvalId) ?? new Set();
        set.add(resolve);
        waiting.set(approvalId, set);
        signal.addEventListener("abort", () => resolve(), { once: true });
      });
      return {
        promise,
        cancel() {
          const set = waiting.get(approvalId);
          if (resolver && set) {
            set.delete(resolver);
            if (set.size === 0) waiting.delete(approvalId);
          }
        },
      };
    },
    notify(approvalId) {
      wakeLocal(approvalId);
      if (!redis) return;
      redis.pub
        .publish(redis.channel, JSON.stringify({ approvalId }))
        .catch((error: unknown) =>
          log.warn({ err: error }, "approval decision not sent to other instances"),
        );
    },
    async close() {
      for (const id of [...waiting.keys()]) wakeLocal(id);
      await subscriber?.quit().catch(() => undefined);
    },
  };
}
