import type { FastifyInstance } from "fastify";
import { type ApprovalWaiters, createApprovalWaiters } from "./approval-waiters";
import { approvalRoutes } from "./routes";

/**
 * Wires approvals into the app (decision 059): the waiters (woken across instances through
 * Redis when there is one), the routes. Returns the waiters for the tool gate.
 */
export async function registerApprovals(
  app: FastifyInstance,
  options: { redisPrefix: string },
): Promise<ApprovalWaiters> {
  const waiters = createApprovalWaiters({
    redis: app.redis ? { pub: app.redis, channel: `${options.redisPrefix}approvals` } : undefined,
    log: app.log,
  });
  // preClose: lanes still waiting stop looking before the database closes.
  app.addHook("preClose", () => waiters.close());
  await app.register(approvalRoutes, { waiters });
  return waiters;
}
