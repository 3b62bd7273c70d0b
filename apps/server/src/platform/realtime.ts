import { SERVER_EVENTS, SOCKET_PATH, type TSocketReady } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import { type ExtendedError, Server, type ServerOptions, type Socket } from "socket.io";
import { createRoomListeners, type RemoteRoomFeed, type RoomListener } from "./room-listeners";

export type HandshakeStep = (socket: Socket) => Promise<void>;

/**
 * The realtime hub: socket.io on the API's own HTTP server, polling transport by default
 * (the API). Modules extend the handshake (authentication) with `useHandshake` and add
 * their own events with `onConnection`; with Redis, rooms span every instance.
 */
export interface Realtime {
  readonly io: Server;
  useHandshake(step: HandshakeStep): void;
  onConnection(handler: (socket: Socket) => void): void;
  /**
   * Hears a room's events on the server, from every instance, until the returned function
   * is called (share streams follow a chat room this way; decision 051).
   */
  listenToRoom(room: string, listener: RoomListener): Promise<() => void>;
}

export function createRealtime(
  app: FastifyInstance,
  options: {
    transports: readonly ("polling" | "websocket")[];
    /** Carries room events between instances (Redis); absent means this process only. */
    adapter?: ServerOptions["adapter"] | undefined;
    /** The adapter's room channels, for server-side listeners (with Redis). */
    roomFeed?: { feed: RemoteRoomFeed; key: string } | undefined;
  },
): Realtime {
  const io = new Server(app.server, {
    path: SOCKET_PATH,
    transports: [...options.transports],
    allowUpgrades: options.transports.includes("websocket"),
    serveClient: false,
    cors: { origin: false },
    maxHttpBufferSize: 1_000_000,
  });
  if (options.adapter) io.adapter(options.adapter);

  const steps: HandshakeStep[] = [];
  const handlers: ((socket: Socket) => void)[] = [];
  io.use((socket, next) => {
    (async () => {
      for (const step of steps) await step(socket);
    })().then(
      () => next(),
      (error: unknown) => {
        const refusal: ExtendedError = new Error(
          error instanceof Error ? error.message : "Connection refused",
        );
        refusal.data = { code: (error as { code?: string }).code ?? "unauthorized" };
        next(refusal);
      },
    );
  });
  io.on("connection", (socket) => {
    const ready: TSocketReady = {
      socketId: socket.id,
      serverTime: new Date().toISOString(),
      transport: socket.conn.transport.name,
    };
    for (const handler of handlers) handler(socket);
    socket.emit(SERVER_EVENTS.ready, ready);
  });

  app.addHook("preClose", async () => {
    io.disconnectSockets(true);
    io.engine.close();
  });

  const rooms = createRoomListeners(() => io.of("/").adapter, {
    remote: options.roomFeed?.feed,
    channelKey: options.roomFeed?.key ?? "socket.io",
  });

  return {
    io,
    listenToRoom: (room, listener) => rooms.listen(room, listener),
    useHandshake: (step) => steps.push(step),
    onConnection: (handler) => handlers.push(handler),
  };
}
