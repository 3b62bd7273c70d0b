import {
  CLIENT_EVENTS,
  MEMORY_EVENTS,
  SERVER_EVENTS,
  SOCKET_PATH,
  SOCKET_RECONNECTION_ATTEMPTS,
  SOCKET_RECONNECTION_DELAY_MAX_MS,
  SOCKET_RECONNECTION_DELAY_MS,
  type TCreditsChanged,
  type TJoinSessionAck,
  type TMemoryProposedEvent,
  type TRunEvent,
  type TSocketReady,
  type TWorkspaceChanged,
} from "@cohort/contracts";
import type { Socket } from "socket.io-client";
import { logger } from "../telemetry/logger";
import { type ConnectionMachine, createConnectionMachine } from "./connection-state";
import type { SessionFeedTransport } from "./session-feed";

/**
 * The app's one socket (the API: polling transport, the session cookie for auth, reconnection
 * 10 attempts with 1–5 s delays). socket.io-client is imported on first use, so it never
 * weighs on a page that does not connect (the landing page, the login screen).
 *
 * Consumers do not touch the socket: they subscribe to server events by name (handlers
 * survive reconnects and may be added before the socket exists), watch the connection, and
 * join session rooms through `joinSession`.
 */
export interface ServerEventPayloads {
  [SERVER_EVENTS.ready]: TSocketReady;
  [SERVER_EVENTS.creditsChanged]: TCreditsChanged;
  [SERVER_EVENTS.runEvent]: TRunEvent;
  [MEMORY_EVENTS.proposed]: TMemoryProposedEvent;
  [SERVER_EVENTS.workspaceChanged]: TWorkspaceChanged;
}
export type ServerEventName = keyof ServerEventPayloads;

const ACK_TIMEOUT_MS = 10_000;
/** How long to wait before reconnecting a socket the server closed on purpose. */
const SERVER_DISCONNECT_RECONNECT_MS = 1_500;
/** A quick unmount–mount (React StrictMode, a layout swap) keeps the socket. */
const RELEASE_GRACE_MS = 1_000;

type Handler = (payload: unknown) => void;

export interface RealtimeClient {
  readonly connection: ConnectionMachine;
  /** Keeps the socket open while at least one holder needs it; returns the release. */
  acquire(): () => void;
  on<K extends ServerEventName>(
    event: K,
    handler: (payload: ServerEventPayloads[K]) => void,
  ): () => void;
  /** Runs `handler` on every (re)connection, and at once when connected now. */
  onConnect(handler: () => void): () => void;
  isConnected(): boolean;
  joinSession(sessionId: string, lastSeq: number, lastAt?: string): Promise<TJoinSessionAck>;
  leaveSession(sessionId: string): void;
  /** After the automatic attempts are spent: try again now. */
  retry(): void;
  /**
   * Closes the socket now, from this side (before signing out: the server would otherwise
   * cut it mid-request). The next `acquire()` opens a new one.
   */
  disconnect(): void;
}

function createRealtimeClient(): RealtimeClient {
  const connection = createConnectionMachine({
    setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  });
  const handlers = new Map<string, Set<Handler>>();
  const connectHandlers = new Set<() => void>();
  let socket: Socket | null = null;
  let opening: Promise<Socket> | null = null;
  let holders = 0;
  let releaseTimer: ReturnType<typeof setTimeout> | null = null;

  const dispatch = (event: string, payload: unknown) => {
    for (const handler of handlers.get(event) ?? []) {
      try {
        handler(payload);
      } catch (error) {
        logger.error("A realtime event handler failed", {
          event,
          cause: error instanceof Error ? error.message : String(error),
        });
      }
    }
  };

  async function open(): Promise<Socket> {
    const { io } = await import("socket.io-client");
    const created = io({
      path: SOCKET_PATH,
      transports: ["polling"],
      withCredentials: true,
      reconnection: true,
      reconnectionAttempts: SOCKET_RECONNECTION_ATTEMPTS,
      reconnectionDelay: SOCKET_RECONNECTION_DELAY_MS,
      reconnectionDelayMax: SOCKET_RECONNECTION_DELAY_MAX_MS,
    });
    created.on("connect", () => {
      connection.connected();
      for (const handler of connectHandlers) handler();
    });
    created.on("disconnect", (reason) => {
      connection.disconnected();
      logger.info("Realtime connection lost", { reason });
      // The server closed this socket on purpose (restart, deploy, sign-out): socket.io does
      // not come back by itself then. Once the old connection is gone, a page that still
      // wants live updates reconnects; one that signed out has released the socket by then.
      if (reason === "io server disconnect") {
        setTimeout(() => {
          if (socket === created && holders > 0 && !created.connected) created.connect();
        }, SERVER_DISCONNECT_RECONNECT_MS);
      }
    });
    created.on("connect_error", (error) => {
      const code = (error as Error & { data?: { code?: string } }).data?.code;
      logger.warn("Realtime connection failed", { message: error.message, code });
      connection.disconnected();
      // A refused handshake (signed out, session revoked) is not retried by socket.io: say
      // so instead of showing "Reconnecting" for ever. The API's 401 policy takes it from here.
      if (!created.active) connection.gaveUp();
    });
    created.io.on("reconnect_failed", () => connection.gaveUp());
    created.onAny((event: string, payload: unknown) => dispatch(event, payload));
    return created;
  }

  function ensureOpen(): Promise<Socket> {
    if (socket) return Promise.resolve(socket);
    opening ??= open().then(
      (created) => {
        socket = created;
        opening = null;
        if (holders === 0) close();
        return created;
      },
      (error: unknown) => {
        opening = null;
        logger.error("Could not load the realtime client", {
          cause: error instanceof Error ? error.message : String(error),
        });
        connection.disconnected();
        throw error;
      },
    );
    return opening;
  }

  function close() {
    socket?.removeAllListeners();
    socket?.io.removeAllListeners();
    socket?.disconnect();
    socket = null;
    connection.reset();
  }

  return {
    connection,
    acquire() {
      holders += 1;
      if (releaseTimer) {
        clearTimeout(releaseTimer);
        releaseTimer = null;
      }
      void ensureOpen().catch(() => undefined);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holders -= 1;
        if (holders > 0) return;
        releaseTimer = setTimeout(() => {
          releaseTimer = null;
          if (holders === 0) close();
        }, RELEASE_GRACE_MS);
      };
    },
    on(event, handler) {
      const set = handlers.get(event) ?? new Set<Handler>();
      set.add(handler as Handler);
      handlers.set(event, set);
      return () => {
        set.delete(handler as Handler);
      };
    },
    onConnect(handler) {
      connectHandlers.add(handler);
      if (socket?.connected) handler();
      return () => {
        connectHandlers.delete(handler);
      };
    },
    isConnected: () => socket?.connected ?? false,
    async joinSession(sessionId, lastSeq, lastAt) {
      // The API: the realtime session id also correlates the page's log entries.
      logger.setSessionId(sessionId);
      const live = await ensureOpen();
      return (await live
        .timeout(ACK_TIMEOUT_MS)
        .emitWithAck(CLIENT_EVENTS.joinSession, { sessionId, lastSeq, lastAt })) as TJoinSessionAck;
    },
    leaveSession(sessionId) {
      logger.setSessionId(undefined);
      if (socket?.connected) socket.emit(CLIENT_EVENTS.leaveSession, { sessionId });
    },
    retry() {
      if (!socket || socket.connected) return;
      connection.retrying();
      socket.connect();
    },
    disconnect() {
      if (opening) void opening.then(() => close()).catch(() => undefined);
      else close();
    },
  };
}

/** The page's realtime client (one socket per tab). */
export const realtime: RealtimeClient = createRealtimeClient();

/** The session feed's view of the app's socket. */
export function socketSessionTransport(client: RealtimeClient = realtime): SessionFeedTransport {
  return {
    join: (sessionId, lastSeq, lastAt) => client.joinSession(sessionId, lastSeq, lastAt),
    leave: (sessionId) => client.leaveSession(sessionId),
    onRunEvent: (handler) => client.on(SERVER_EVENTS.runEvent, handler),
    onConnect: (handler) => client.onConnect(handler),
  };
}
