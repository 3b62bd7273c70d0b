import { Redis } from "ioredis";

/** One Redis connection factory; callers own and close what they create. */
export function createRedis(url: string, name: string): Redis {
  const client = new Redis(url, {
    connectionName: `cohort:${name}`,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    lazyConnect: false,
  });
  // Connection errors surface through the health check and the commands that fail;
  // an unhandled 'error' event must not take the process down.
  client.on("error", () => {});
  return client;
}
