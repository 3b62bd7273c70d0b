import {
  ZBillingSummary,
  ZCheckoutOutcome,
  ZCreateCheckoutSessionRequest,
  ZCreateCheckoutSessionResponse,
  ZCreditHistoryPage,
  ZLedgerPage,
  ZLedgerQuery,
  ZPortalResponse,
  ZPurchaseCreditsRequest,
  ZPurchaseCreditsResponse,
  ZUsageStats,
  ZWebhookResponse,
} from "@cohort/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { currentPrincipal, requireUser } from "../../platform/auth";
import { requireAgreement } from "../agreements/require-agreement";
import { getUsageStats } from "../credits/get-usage";
import { listCreditHistory, type RunSessions } from "../credits/list-credit-history";
import { listLedger } from "../credits/list-ledger";
import { type BillingDeps, billingDeps } from "./billing-deps";
import { creditPackWorkspace, requirePersonalSubscription } from "./checkout-workspace";
import { createCheckout } from "./create-checkout";
import {
  cancelDevCheckout,
  findDevCheckout,
  payDevCheckout,
  renderDevCheckoutPage,
} from "./dev-checkout";
import { DEV_PORTAL_ACTIONS, renderDevPortalPage, runDevPortalAction } from "./dev-portal";
import { getBillingSummary } from "./get-billing-summary";
import { getCheckoutOutcome } from "./get-checkout-outcome";
import { handleWebhook } from "./handle-webhook";
import type { Payments } from "./payments";
import { assertSameOrigin } from "./same-origin";

const tags = ["billing"];

export async function billingRoutes(
  app: FastifyInstance,
  options: {
    payments: Payments;
    /** The session each run was started in (from the run engine, passed in at registration). */
    runSessions: RunSessions;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = billingDeps(app, options.payments);

  r.post(
    "/api/billing/create-checkout-session",
    {
      schema: {
        tags,
        summary: "Start a subscription checkout; the browser then goes to checkout_url",
        body: ZCreateCheckoutSessionRequest,
        response: { 200: ZCreateCheckoutSessionResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      requirePersonalSubscription(user.id, request.body.workspace_id);
      const started = await createCheckout(deps, user, {
        kind: "subscription",
        tier: request.body.tier,
        billingPeriod: request.body.billingPeriod,
      });
      return { sessionId: started.sessionId, checkout_url: started.checkoutUrl };
    },
  );

  r.post(
    "/api/billing/purchase-credits",
    {
      schema: {
        tags,
        summary:
          "Start a credit pack checkout (for yourself, or a team workspace's pool as its owner or admin); the browser then goes to checkout_url",
        body: ZPurchaseCreditsRequest,
        response: { 200: ZPurchaseCreditsResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      const workspaceId = await creditPackWorkspace(deps.db, user.id, request.body.workspace_id);
      const started = await createCheckout(deps, user, {
        kind: "credits",
        packageId: request.body.packageId,
        workspaceId,
      });
      return { sessionId: started.sessionId, checkout_url: started.checkoutUrl };
    },
  );

  r.post(
    "/api/billing/portal",
    {
      schema: {
        tags,
        summary: "A link to manage the subscription (Stripe's customer portal, or the dev one)",
        response: { 200: ZPortalResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      return { url: await deps.payments.portalUrl(user) };
    },
  );

  r.get(
    "/api/billing/summary",
    {
      schema: {
        tags,
        summary: "Tier, subscription, balance, plans and packs: the billing screen in one call",
        response: { 200: ZBillingSummary },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("cache-control", "no-store");
      return getBillingSummary(deps, user);
    },
  );

  r.get(
    "/api/billing/usage-stats",
    {
      schema: {
        tags,
        summary: "The data model usage totals of the signed-in user (zeros when there is none)",
        response: { 200: ZUsageStats },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("cache-control", "no-store");
      return getUsageStats(app.db, user.id);
    },
  );

  r.get(
    "/api/billing/ledger",
    {
      schema: {
        tags,
        summary: "The signed-in user's credit ledger, newest first, a page at a time",
        querystring: ZLedgerQuery,
        response: { 200: ZLedgerPage },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("cache-control", "no-store");
      return listLedger(app.db, user.id, request.query);
    },
  );

  r.get(
    "/api/billing/credit-history",
    {
      schema: {
        tags,
        summary:
          "The credit history, newest first, a page at a time: one row per run (its calls inside, linked to its session), one per other ledger entry",
        querystring: ZLedgerQuery,
        response: { 200: ZCreditHistoryPage },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("cache-control", "no-store");
      return listCreditHistory(app.db, user.id, request.query, options.runSessions);
    },
  );

  r.get(
    "/api/billing/checkouts/:id",
    {
      schema: {
        tags,
        summary:
          "What one of the user's checkouts bought and whether its payment has been applied (404 for anyone else's)",
        params: ZCheckoutParams,
        response: { 200: ZCheckoutOutcome },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("cache-control", "no-store");
      return getCheckoutOutcome(app.db, user.id, request.params.id);
    },
  );

  await app.register(async (scope) => {
    // The signature covers the exact bytes Stripe sent, so this route keeps the raw body.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => {
      done(null, body);
    });
    scope.withTypeProvider<ZodTypeProvider>().post(
      "/api/billing/webhook",
      {
        config: { csrf: false, rateLimit: false },
        schema: {
          tags,
          summary: "Stripe webhook (signed); the dev checkout sends its events through it too",
          response: { 200: ZWebhookResponse },
        },
      },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers["stripe-signature"];
        const result = await handleWebhook(
          deps,
          body,
          Array.isArray(signature) ? signature[0] : signature,
        );
        return { received: true as const, duplicate: result.duplicate };
      },
    );
  });

  if (deps.payments.kind === "dev") await app.register(devCheckoutRoutes(deps));
}

const ZCheckoutParams = z.object({ id: z.string().min(1).max(200) });

/** Where a browser without a session is sent instead of a JSON 401. */
async function pageUser(request: FastifyRequest, reply: FastifyReply) {
  const principal = await currentPrincipal(request);
  if (!principal) {
    await reply.redirect("/login", 303);
    return null;
  }
  return principal.user;
}

function sendPage(reply: FastifyReply, html: string) {
  return reply
    .header("cache-control", "no-store")
    .header("x-robots-tag", "noindex")
    .type("text/html; charset=utf-8")
    .send(html);
}

/** The dev checkout and portal: only when payments run without Stripe. */
function devCheckoutRoutes(deps: BillingDeps) {
  return async (scope: FastifyInstance) => {
    // The pages post plain HTML forms; their (empty) bodies need no parsing.
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string" },
      (_request, _body, done) => done(null, {}),
    );
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const hide = { hide: true, tags };
    const formPost = { csrf: false };

    r.get(
      "/api/billing/dev-checkout/:id",
      { schema: { ...hide, params: ZCheckoutParams } },
      async (request, reply) => {
        const user = await pageUser(request, reply);
        if (!user) return reply;
        const row = await findDevCheckout(deps.db, request.params.id, user.id);
        return sendPage(reply, renderDevCheckoutPage(row));
      },
    );

    r.post(
      "/api/billing/dev-checkout/:id/pay",
      { config: formPost, schema: { ...hide, params: ZCheckoutParams } },
      async (request, reply) => {
        assertSameOrigin(request, deps.publicUrl);
        const { user } = await requireAgreement(request);
        const row = await findDevCheckout(deps.db, request.params.id, user.id);
        await payDevCheckout(deps, row);
        return reply.redirect(
          `/billing?checkout=success&session_id=${encodeURIComponent(row.id)}`,
          303,
        );
      },
    );

    r.post(
      "/api/billing/dev-checkout/:id/cancel",
      { config: formPost, schema: { ...hide, params: ZCheckoutParams } },
      async (request, reply) => {
        assertSameOrigin(request, deps.publicUrl);
        const { user } = await requireUser(request);
        const row = await findDevCheckout(deps.db, request.params.id, user.id);
        await cancelDevCheckout(deps.db, row);
        return reply.redirect("/billing?checkout=cancel", 303);
      },
    );

    r.get("/api/billing/dev-portal", { schema: hide }, async (request, reply) => {
      const user = await pageUser(request, reply);
      if (!user) return reply;
      return sendPage(reply, await renderDevPortalPage(deps, user.id));
    });

    r.post(
      "/api/billing/dev-portal/:action",
      {
        config: formPost,
        schema: { ...hide, params: z.object({ action: z.enum(DEV_PORTAL_ACTIONS) }) },
      },
      async (request, reply) => {
        assertSameOrigin(request, deps.publicUrl);
        const { user } = await requireAgreement(request);
        await runDevPortalAction(deps, user.id, request.params.action);
        return reply.redirect("/api/billing/dev-portal", 303);
      },
    );
  };
}
