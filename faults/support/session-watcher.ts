import {
  CLIENT_EVENTS,
  SERVER_EVENTS,
  type TJoinSessionAck,
  type TRunEvent,
  type TRunEventsResponse,
} from "@cohort/contracts";
import { io as connect, type Socket } from "socket.io-client";
import { type SessionFeed, startSessionFeed } from "../../apps/web/src/lib/realtime/session-feed";
import { apiCall } from "../../test-support/api-client.mjs";
import { within } from "./wait";

/**
 * A client of one session on one instance, as the web app follows it: a socket.io connection
 * (polling) in the session's room, fed through the web app's own session feed, which takes
 * every event once and in seq order, and fetches what it missed from the stored events by
 * seq. `live` is what arrived over the socket, `shown` what the feed gave the page.
 */
export class SessionWatcher {
  readonly live: { event: TRunEvent; at: number }[] = [];
  readonly shown: TRunEvent[] = [];
  readonly errors: unknown[] = [];
  private feed: SessionFeed | null = null;

  private constructor(
    private readonly socket: Socket,
    readonly instanceName: string,
  ) {}

  static async open(
    instance: { url: string; name: string },
    token: string,
    sessionId: string,
  ): Promise<SessionWatcher> {
    const socket = connect(instance.url, {
      transports: ["polling"],
      reconnection: false,
      timeout: 5_000,
      auth: { token },
    });
    const watcher = new SessionWatcher(socket, instance.name);
    socket.on(SERVER_EVENTS.runEvent, (event: TRunEvent) =>
      watcher.live.push({ event, at: Date.now() }),
    );
    await within(
      10_000,
      `socket connection to ${instance.name}`,
      new Promise<void>((resolve, reject) => {
        socket.once("connect", () => resolve());
        socket.once("connect_error", reject);
      }),
    );
    let joined: () => void = () => {};
    const firstJoin = new Promise<void>((resolve) => {
      joined = resolve;
    });
    watcher.feed = startSessionFeed({
      sessionId,
      afterSeq: 0,
      fetchEvents: (after, signal) =>
        apiCall<TRunEventsResponse>(
          instance.url,
          "GET",
          `/api/sessions/${sessionId}/events?after=${after}&limit=5000`,
          { bearer: token, signal },
        ),
      transport: {
        join: async (id, lastSeq) => {
          const ack = (await socket
            .timeout(5_000)
            .emitWithAck(CLIENT_EVENTS.joinSession, { sessionId: id, lastSeq })) as TJoinSessionAck;
          joined();
          return ack;
        },
        leave: (id) => {
          socket.emit(CLIENT_EVENTS.leaveSession, { sessionId: id });
        },
        onRunEvent: (handler) => {
          socket.on(SERVER_EVENTS.runEvent, handler);
          return () => socket.off(SERVER_EVENTS.runEvent, handler);
        },
        onConnect: (handler) => {
          socket.on("connect", handler);
          if (socket.connected) handler();
          return () => socket.off("connect", handler);
        },
      },
      onEvents: (events) => watcher.shown.push(...events),
      onError: (error) => watcher.errors.push(error),
    });
    await within(10_000, `join-session on ${instance.name}`, firstJoin);
    return watcher;
  }

  get connected(): boolean {
    return this.socket.connected;
  }

  /** The newest seq the feed has given the page. */
  lastSeq(): number {
    return this.feed?.lastSeq() ?? 0;
  }

  close(): void {
    this.feed?.stop();
    this.socket.close();
  }
}
