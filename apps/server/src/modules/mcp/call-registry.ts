/**
 * The tool calls this process is running, by access token and JSON-RPC request id. The
 * server is stateless (decision 035): a client's `notifications/cancelled` arrives in a POST
 * of its own, handled by a new server instance that never saw the call, so the call's abort
 * is found here. The token in the key keeps one token's cancels from reaching another's
 * calls; two clients sharing a token and a request id are the same owner either way.
 */
export interface CallRegistry {
  /** Registers a running call; the returned function removes it. */
  add(tokenId: string, requestId: string | number, controller: AbortController): () => void;
  cancel(tokenId: string, requestId: string | number, reason: string): boolean;
  /** How many calls run now (tests, shutdown). */
  readonly size: number;
}

export function createCallRegistry(): CallRegistry {
  const calls = new Map<string, AbortController>();
  const keyOf = (tokenId: string, requestId: string | number) =>
    `${tokenId}:${typeof requestId}:${requestId}`;
  return {
    add(tokenId, requestId, controller) {
      const key = keyOf(tokenId, requestId);
      calls.set(key, controller);
      return () => {
        if (calls.get(key) === controller) calls.delete(key);
      };
    },
    cancel(tokenId, requestId, reason) {
      const controller = calls.get(keyOf(tokenId, requestId));
      controller?.abort(new Error(reason));
      return controller !== undefined;
    },
    get size() {
      return calls.size;
    },
  };
}
