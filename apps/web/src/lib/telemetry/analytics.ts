import {
  ANALYTICS_BATCH_MAX_ITEMS,
  ANALYTICS_MIN_SEND_INTERVAL_MS,
  ANALYTICS_RATE_LIMIT_BACKOFF_MS,
  ANALYTICS_SESSION_TIMEOUT_MS,
  type TAnalyticsEvent,
  type TPageView,
  type TPerformanceData,
  type TSessionEnd,
} from "@cohort/contracts";
import { readStorage, type StorageLike, writeStorage } from "../storage/browser-storage";
import type { TelemetryTransport } from "./transport";

/** localStorage: the analytics session, shared by the tabs of one browser. */
export const ANALYTICS_SESSION_KEY = "cohortAnalyticsSession";
/** localStorage: "1" once the person opted out in Settings (also before signing in again). */
export const ANALYTICS_OPT_OUT_KEY = "cohortAnalyticsOptOut";

type Kind = "pageview" | "event" | "performance" | "session-end";
type Item = TPageView | TAnalyticsEvent | TPerformanceData | TSessionEnd;

/** What a caller gives; the session and the user are filled in here. */
export type PageViewInput = Omit<TPageView, "sessionId" | "userId">;
export type EventInput = Omit<TAnalyticsEvent, "sessionId" | "userId">;
export type PerformanceInput = Omit<TPerformanceData, "sessionId" | "userId">;

interface StoredSession {
  id: string;
  startedAt: number;
  lastActivityAt: number;
}

export interface AnalyticsDeps {
  transport: TelemetryTransport;
  localStorage: StorageLike | null;
  now: () => number;
  randomId: () => string;
  /** Do Not Track or Global Privacy Control is on: nothing is recorded at all. */
  browserDeclines: () => boolean;
  userId: () => string | undefined;
}

export interface Analytics {
  /** The current session's id: reused when the last activity was under 30 minutes ago. */
  sessionId(): string;
  trackPageView(view: PageViewInput): void;
  trackEvent(event: EventInput): void;
  trackPerformance(data: PerformanceInput): void;
  /** The page is going away: the session's duration so far and anything queued leave now. */
  endSession(): void;
  setOptOut(optOut: boolean): void;
  /** False under DNT/GPC or after an opt-out. */
  isEnabled(): boolean;
  /** Items waiting for the next send (tests and the debug screen). */
  pending(): number;
}

function parseSession(text: string | null): StoredSession | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<StoredSession>;
    return typeof value.id === "string" &&
      typeof value.startedAt === "number" &&
      typeof value.lastActivityAt === "number"
      ? { id: value.id, startedAt: value.startedAt, lastActivityAt: value.lastActivityAt }
      : null;
  } catch {
    return null;
  }
}

/**
 * The data model, the error texts and the product limits analytics: page views, events, web vitals and session ends, queued and sent
 * at most once every 2 s (one request per send); on 429 the queue is emptied and nothing is
 * recorded for 60 s.
 */
export function createAnalytics(deps: AnalyticsDeps): Analytics {
  let memorySession: StoredSession | null = null;
  let queue: { kind: Kind; item: Item }[] = [];
  let lastSendAt = Number.NEGATIVE_INFINITY;
  let backoffUntil = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let sending = false;

  function isEnabled(): boolean {
    return !deps.browserDeclines() && readStorage(deps.localStorage, ANALYTICS_OPT_OUT_KEY) !== "1";
  }

  function currentSession(): StoredSession {
    const now = deps.now();
    const stored =
      parseSession(readStorage(deps.localStorage, ANALYTICS_SESSION_KEY)) ?? memorySession;
    const session =
      stored && now - stored.lastActivityAt < ANALYTICS_SESSION_TIMEOUT_MS
        ? { ...stored, lastActivityAt: now }
        : { id: deps.randomId(), startedAt: now, lastActivityAt: now };
    memorySession = session;
    writeStorage(deps.localStorage, ANALYTICS_SESSION_KEY, JSON.stringify(session));
    return session;
  }

  function identity(): { sessionId: string; userId?: string } {
    const userId = deps.userId();
    return { sessionId: currentSession().id, ...(userId ? { userId } : {}) };
  }

  function schedule(): void {
    if (timer !== null || sending || queue.length === 0) return;
    const wait = Math.max(0, lastSendAt + ANALYTICS_MIN_SEND_INTERVAL_MS - deps.now());
    timer = setTimeout(() => {
      timer = null;
      void sendNext();
    }, wait);
  }

  /** One send: the oldest queued item's kind, with every queued item of that kind (capped). */
  async function sendNext(): Promise<void> {
    const first = queue[0];
    if (!first) return;
    const batch = queue.filter((q) => q.kind === first.kind).slice(0, ANALYTICS_BATCH_MAX_ITEMS);
    queue = queue.filter((q) => !batch.includes(q));
    sending = true;
    lastSendAt = deps.now();
    try {
      const result = await deps.transport.send(
        `/analytics/${first.kind}`,
        batch.map((q) => q.item),
      );
      if (result.status === 429) {
        backoffUntil = deps.now() + ANALYTICS_RATE_LIMIT_BACKOFF_MS;
        queue = [];
      }
    } finally {
      sending = false;
      schedule();
    }
  }

  function enqueue(kind: Kind, item: Item): void {
    if (!isEnabled() || deps.now() < backoffUntil) return;
    queue.push({ kind, item });
    schedule();
  }

  return {
    sessionId: () => currentSession().id,
    trackPageView(view) {
      if (isEnabled()) enqueue("pageview", { ...view, ...identity() });
    },
    trackEvent(event) {
      if (isEnabled()) enqueue("event", { ...event, ...identity() });
    },
    trackPerformance(data) {
      if (isEnabled()) enqueue("performance", { ...data, ...identity() });
    },
    endSession() {
      if (!isEnabled() || deps.now() < backoffUntil) return;
      const session = currentSession();
      const userId = deps.userId();
      const end: TSessionEnd = {
        sessionId: session.id,
        duration: Math.max(0, Math.round((session.lastActivityAt - session.startedAt) / 1000)),
        ...(userId ? { userId } : {}),
      };
      // The page will not live 2 s more: what is queued leaves now, each kind in one request.
      const pending = [...queue, { kind: "session-end" as const, item: end }];
      queue = [];
      if (timer !== null) clearTimeout(timer);
      timer = null;
      const kinds = [...new Set(pending.map((q) => q.kind))];
      for (const kind of kinds) {
        const items = pending.filter((q) => q.kind === kind).map((q) => q.item);
        void deps.transport.send(`/analytics/${kind}`, items.slice(0, ANALYTICS_BATCH_MAX_ITEMS), {
          keepalive: true,
        });
      }
    },
    setOptOut(optOut) {
      if (optOut) {
        writeStorage(deps.localStorage, ANALYTICS_OPT_OUT_KEY, "1");
        queue = [];
      } else {
        try {
          deps.localStorage?.removeItem(ANALYTICS_OPT_OUT_KEY);
        } catch {
          // A blocked storage keeps the old choice; the server-side preference still applies.
        }
      }
    },
    isEnabled,
    pending: () => queue.length,
  };
}
