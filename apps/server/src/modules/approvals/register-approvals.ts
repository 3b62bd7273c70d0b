import type { FastifyInstance } from "fastify";
import { createApprovalWaiters } from "../../platform/approval-waiters";
import { createApprovalGate } from "./approval-gate";
import { approvalRoutes } from "./routes";

/**
 * Wires approvals into the app (decision 059): the waiters (woken across instances through
 * Redis when there is one), the tool gate the run engine asks, and the routes.
 */
export async function registerApprovals(
  app: FastifyInstance,
  options: { redisPrefix: string },
): Promise<void> {
  const waiters = createApprovalWaiters({
    redis: app.redis ? { pub: app.redis, channel: `${options.redisPrefix}approvals` } : undefined,
    log: app.log,
  });
  // preClose: lanes still waiting stop looking before the database closes.
  app.addHook("preClose", () => waiters.close());
  app.tools.setGate(
    createApprovalGate({ db: app.db, waiters, timeoutMs: app.config.approvalTimeoutMs }),
  );
  await app.register(approvalRoutes, { waiters });
}
