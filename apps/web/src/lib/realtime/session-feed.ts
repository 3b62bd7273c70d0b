import {
  type TJoinSessionAck,
  type TRunEvent,
  type TRunEventsResponse,
  takeNewEvents,
} from "@cohort/contracts";

/**
 * One session's run events, each exactly once and in seq order, across a page load, socket
 * reconnects and server restarts:
 *
 * 1. live events are listened for from the start (they wait while earlier ones are missing);
 * 2. an HTTP backfill fetches everything after the caller's cursor (a reload mid-run);
 * 3. the socket joins the room with the newest seq seen, and again with the then-newest seq
 *    after every reconnect; the join's backlog and the live events overlap and are deduped;
 * 4. a gap that does not close by itself (a lost packet) is filled over HTTP;
 * 5. a join answered `rewound` (the server lost the last events it had sent, decision 048)
 *    stops the feed and asks the caller to read the session again.
 */
export interface SessionFeedTransport {
  /** `lastAt`: the `at` of the event numbered lastSeq, when the feed has it. */
  join(sessionId: string, lastSeq: number, lastAt?: string): Promise<TJoinSessionAck>;
  leave(sessionId: string): void;
  onRunEvent(handler: (event: TRunEvent) => void): () => void;
  /** Runs on every (re)connection, and at once when connected now. */
  onConnect(handler: () => void): () => void;
}

export interface FeedClock {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface SessionFeedOptions {
  sessionId: string;
  /** The newest seq the caller already shows (0: nothing yet). */
  afterSeq: number;
  fetchEvents(after: number, signal: AbortSignal): Promise<TRunEventsResponse>;
  transport: SessionFeedTransport;
  onEvents(events: TRunEvent[]): void;
  /** The room or the backfill refused us (e.g. the session was deleted). */
  onError?(error: unknown): void;
  /** The server no longer has what this feed delivered last: read the session again. */
  onRewound?(): void;
  clock?: FeedClock;
}

export interface SessionFeed {
  lastSeq(): number;
  stop(): void;
}

/** How long a gap may stay open before the missing events are fetched. */
export const GAP_FILL_DELAY_MS = 1_500;
/** How long to wait before joining again when the server could not answer a join. */
export const JOIN_RETRY_DELAY_MS = 2_000;

const defaultClock: FeedClock = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function startSessionFeed(options: SessionFeedOptions): SessionFeed {
  const { sessionId, transport } = options;
  const clock = options.clock ?? defaultClock;
  const abort = new AbortController();
  let lastSeq = options.afterSeq;
  /** The `at` of the event numbered lastSeq, once the feed has delivered one. */
  let lastAt: string | undefined;
  let pending: TRunEvent[] = [];
  let stopped = false;
  let gapTimer: unknown = null;
  let backfilling: Promise<void> | null = null;
  let offConnect: (() => void) | null = null;
  let retryTimer: unknown = null;

  const accept = (events: readonly TRunEvent[]) => {
    if (stopped) return;
    const mine = events.filter((event) => event.session_id === sessionId);
    if (mine.length === 0) return;
    const taken = takeNewEvents(lastSeq, [...pending, ...mine]);
    pending = taken.pending;
    lastSeq = taken.lastSeq;
    const newest = taken.events.at(-1);
    if (newest) {
      lastAt = newest.at;
      options.onEvents(taken.events);
    }
    if (pending.length > 0 && gapTimer === null) {
      gapTimer = clock.setTimeout(() => {
        gapTimer = null;
        if (pending.length > 0) void backfill();
      }, GAP_FILL_DELAY_MS);
    }
  };

  const fail = (error: unknown) => {
    if (!stopped) options.onError?.(error);
  };

  function backfill(): Promise<void> {
    backfilling ??= (async () => {
      try {
        for (;;) {
          const page = await options.fetchEvents(lastSeq, abort.signal);
          if (stopped) return;
          accept(page.events);
          if (!page.has_more || page.events.length === 0) return;
        }
      } finally {
        backfilling = null;
      }
    })();
    return backfilling;
  }

  async function join(): Promise<void> {
    try {
      const ack = await transport.join(sessionId, lastSeq, lastAt);
      if (stopped) return;
      if (ack.ok && ack.rewound) {
        stop();
        options.onRewound?.();
        return;
      }
      if (!ack.ok) {
        if (ack.error === "not_found" || ack.error === "invalid_request") {
          fail(new Error(`join-session refused: ${ack.error}`));
        } else {
          // The server could not read the backlog just now: try again shortly.
          retryTimer ??= clock.setTimeout(() => {
            retryTimer = null;
            if (!stopped) void join();
          }, JOIN_RETRY_DELAY_MS);
        }
        return;
      }
      accept(ack.backlog);
      if (ack.hasMore) await backfill();
    } catch {
      // A join that timed out is retried by the next reconnect; the backfill covers the rest.
      if (!stopped) void backfill().catch(fail);
    }
  }

  const offEvents = transport.onRunEvent((event) => accept([event]));
  void backfill().then(
    () => {
      if (stopped) return;
      offConnect = transport.onConnect(() => void join());
    },
    (error: unknown) => {
      fail(error);
      // Live updates are still worth having when the backfill failed.
      if (!stopped) offConnect = transport.onConnect(() => void join());
    },
  );

  function stop(): void {
    if (stopped) return;
    stopped = true;
    abort.abort();
    offEvents();
    offConnect?.();
    if (gapTimer !== null) clock.clearTimeout(gapTimer);
    if (retryTimer !== null) clock.clearTimeout(retryTimer);
    transport.leave(sessionId);
  }

  return { lastSeq: () => lastSeq, stop };
}
