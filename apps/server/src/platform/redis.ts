import type { Redis } from "ioredis";
import type { ServerOptions } from "socket.io";
import type { RemoteRoomFeed } from "./room-listeners";

/** The Redis connections one instance keeps: commands, and a pub/sub pair for socket.io. */
export interface RedisConnections {
  main: Redis;
  /** The socket.io adapter that carries room events between instances. */
  socketAdapter(key: string): ServerOptions["adapter"];
  /** Single rooms' adapter channels, for server-side listeners (a connection opened on first use). */
  roomFeed: RemoteRoomFeed;
  close(): Promise<void>;
}

/**
 * Connects to Redis. The client libraries load only here, when REDIS_URL is set, so a
 * single embedded instance never pays for them.
 */
export async function connectRedis(
  url: string,
  log: {
    warn(details: object, message: string): void;
    info(details: object, message: string): void;
  },
): Promise<RedisConnections> {
  const [{ Redis }, { createAdapter }] = await Promise.all([
    import("ioredis"),
    import("@socket.io/redis-adapter"),
  ]);
  const open = (name: string, options: { readyCheck: boolean } = { readyCheck: true }) => {
    const client = new Redis(url, {
      connectionName: `cohort:${name}`,
      maxRetriesPerRequest: 2,
      enableOfflineQueue: true,
      // The subscriber must not run the ready check: its INFO can go out after the adapter's
      // PSUBSCRIBE, fail in subscriber mode and make ioredis reconnect without the
      // subscriptions (ioredis#2037): that instance would never hear the others' events.
      enableReadyCheck: options.readyCheck,
    });
    // Connection errors surface through the health check and the commands that fail;
    // an unhandled 'error' event must not take the process down.
    client.on("error", () => {});
    return client;
  };
  const main = open("main");
  const pub = open("pub");
  const sub = open("sub", { readyCheck: false });
  // One line when Redis goes away and one when it is back (not one per retry): the instance
  // keeps serving meanwhile (degraded), and events stored first reach clients on catch-up.
  let down = false;
  main.on("error", (error: Error) => {
    if (down) return;
    down = true;
    log.warn(
      { err: error },
      "Redis is unreachable: serving degraded (events between instances, shared limits) until it returns",
    );
  });
  main.on("ready", () => {
    if (!down) return;
    down = false;
    log.info({}, "Redis is back: events between instances and shared limits resume");
  });
  // The adapter publishes without waiting for the answer: with Redis down, a failed publish
  // must be a lost cross-instance delivery (clients catch up from the stored events), not an
  // unhandled rejection that ends the process.
  const publish = pub.publish.bind(pub);
  pub.publish = ((...args: Parameters<typeof publish>) =>
    publish(...args).catch(() => 0)) as typeof pub.publish;
  // Share streams subscribe to single rooms' channels on a connection of their own, so the
  // adapter's pattern subscription and these never interfere (decision 051).
  let feed: Redis | null = null;
  const handlers = new Map<string, Set<(message: Buffer) => void>>();
  const roomFeed: RemoteRoomFeed = {
    async subscribe(channel, onMessage) {
      if (!feed) {
        feed = open("rooms", { readyCheck: false });
        feed.on("messageBuffer", (name: Buffer, message: Buffer) => {
          for (const handler of handlers.get(name.toString()) ?? []) handler(message);
        });
      }
      const client = feed;
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await client.subscribe(channel);
      }
      set.add(onMessage);
      return () => {
        const current = handlers.get(channel);
        if (!current?.delete(onMessage) || current.size > 0) return;
        handlers.delete(channel);
        void client.unsubscribe(channel).catch(() => {});
      };
    },
  };
  return {
    main,
    socketAdapter: (key) => createAdapter(pub, sub, { key }),
    roomFeed,
    close: async () => {
      const clients = feed ? [main, pub, sub, feed] : [main, pub, sub];
      await Promise.all(clients.map((client) => client.quit().catch(() => undefined)));
    },
  };
}
