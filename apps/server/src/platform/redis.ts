import type { Redis } from "ioredis";
import type { ServerOptions } from "socket.io";

/** The Redis connections one instance keeps: commands, and a pub/sub pair for socket.io. */
export interface RedisConnections {
  main: Redis;
  /** The socket.io adapter that carries room events between instances. */
  socketAdapter(key: string): ServerOptions["adapter"];
  close(): Promise<void>;
}

/**
 * Connects to Redis. The client libraries load only here, when REDIS_URL is set, so a
 * single embedded instance never pays for them.
 */
export async function connectRedis(url: string): Promise<RedisConnections> {
  const [{ Redis }, { createAdapter }] = await Promise.all([
    import("ioredis"),
    import("@socket.io/redis-adapter"),
  ]);
  const open = (name: string) => {
    const client = new Redis(url, {
      connectionName: `cohort:${name}`,
      maxRetriesPerRequest: 2,
      enableOfflineQueue: true,
    });
    // Connection errors surface through the health check and the commands that fail;
    // an unhandled 'error' event must not take the process down.
    client.on("error", () => {});
    return client;
  };
  const main = open("main");
  const pub = open("pub");
  const sub = open("sub");
  return {
    main,
    socketAdapter: (key) => createAdapter(pub, sub, { key }),
    close: async () => {
      await Promise.all([main, pub, sub].map((client) => client.quit().catch(() => undefined)));
    },
  };
}
