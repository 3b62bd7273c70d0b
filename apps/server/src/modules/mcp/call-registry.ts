import type { Redis } from "ioredis";

/**
 * The tool calls this process is running, by access token and JSON-RPC request id. The
 * server is stateless (decision 035): a client's `notifications/cancelled` arrives in a POST
 * of its own, handled by a new server instance that never saw the call, so the call's abort
 * is found here. The token in the key keeps one token's cancels from reaching another's
 * calls; two clients sharing a token and a request id are the same owner either way. With
 * several instances the cancel may reach one that does not run the call: it goes to the
 * others through Redis pub/sub (decision 046), and the one running it aborts it.
 */
export interface CallRegistry {
  /** Registers a running call; the returned function removes it. */
  add(tokenId: string, requestId: string | number, controller: AbortController): () => void;
  cancel(tokenId: string, requestId: string | number, reason: string): boolean;
  /** How many calls run now (tests, shutdown). */
  readonly size: number;
}

interface CancelMessage {
  tokenId: string;
  requestId: string | number;
  reason: string;
}

export function createCallRegistry(
  redis?: { pub: Redis; channel: string } | undefined,
): CallRegistry & { close(): Promise<void> } {
  const calls = new Map<string, AbortController>();
  const keyOf = (tokenId: string, requestId: string | number) =>
    `${tokenId}:${typeof requestId}:${requestId}`;
  const cancelHere = (tokenId: string, requestId: string | number, reason: string) => {
    const controller = calls.get(keyOf(tokenId, requestId));
    controller?.abort(new Error(reason));
    return controller !== undefined;
  };
  // A subscribed connection can do nothing else: a duplicate of the command connection.
  const subscriber = redis?.pub.duplicate({
    connectionName: "cohort:mcp",
    enableReadyCheck: false,
  });
  if (redis && subscriber) {
    subscriber.on("error", () => {});
    subscriber.on("message", (channel: string, text: string) => {
      if (channel !== redis.channel) return;
      const message = JSON.parse(text) as CancelMessage;
      cancelHere(message.tokenId, message.requestId, message.reason);
    });
    void subscriber.subscribe(redis.channel).catch(() => undefined);
  }
  return {
    add(tokenId, requestId, controller) {
      const key = keyOf(tokenId, requestId);
      calls.set(key, controller);
      return () => {
        if (calls.get(key) === controller) calls.delete(key);
      };
    },
    cancel(tokenId, requestId, reason) {
      if (cancelHere(tokenId, requestId, reason)) return true;
      if (redis) {
        const message: CancelMessage = { tokenId, requestId, reason };
        void redis.pub.publish(redis.channel, JSON.stringify(message)).catch(() => undefined);
      }
      return false;
    },
    get size() {
      return calls.size;
    },
    async close() {
      await subscriber?.quit().catch(() => undefined);
    },
  };
}
