import { randomUUID } from "node:crypto";
import { MAX_BODY_BYTES, REQUEST_ID_HEADER } from "@cohort/contracts";
import cookie from "@fastify/cookie";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
} from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import type { Redis } from "ioredis";
import type { DestinationStream } from "pino";
import pkg from "../package.json" with { type: "json" };
import type { AppConfig } from "./config";
import { createDb, type Db } from "./db/client";
import { migrate } from "./db/migrate";
import { accessTokenRoutes } from "./modules/access-tokens/routes";
import { adminRoutes } from "./modules/admin/routes";
import { registerAgreementChecks } from "./modules/agreements/agreement-checks";
import { agreementRoutes } from "./modules/agreements/routes";
import { seedDefaultAgreement } from "./modules/agreements/seed-default-agreement";
import { registerApprovals } from "./modules/approvals/register-approvals";
import { ensureAdmin } from "./modules/auth/ensure-admin";
import { resolveSignIn, resolveSignInRiding } from "./modules/auth/resolve-sign-in";
import { authRoutes } from "./modules/auth/routes";
import { createPayments } from "./modules/billing/payments";
import { billingRoutes } from "./modules/billing/routes";
import { cochatRoutes } from "./modules/cochat/routes";
import { eraseSessionCodeFiles } from "./modules/code-runner/erase-session-code-files";
import { registerCodeRunner } from "./modules/code-runner/register-code-runner";
import { creditsDeps } from "./modules/credits/credits-deps";
import { releaseOpenHolds } from "./modules/credits/release-open-holds";
import { startHoldSweeper } from "./modules/credits/sweep-expired-holds";
import { deleteDocument } from "./modules/documents/delete-document";
import { createDocumentStore } from "./modules/documents/document-store";
import { listDocumentsToErase } from "./modules/documents/list-account-documents";
import { documentRoutes } from "./modules/documents/routes";
import { sessionDocumentRoutes } from "./modules/documents/session-document-routes";
import { accountDataRoutes } from "./modules/export/account-data-routes";
import { accountErasureDeps, eraseAccount } from "./modules/export/account-delete";
import { exportRoutes } from "./modules/export/routes";
import { shareRoutes } from "./modules/export/share-routes";
import { eraseSessionImages } from "./modules/images/erase-session-images";
import { registerImages } from "./modules/images/register-images";
import { mcpRoutes } from "./modules/mcp/routes";
import { registerMcpServers } from "./modules/mcp-servers/routes";
import { memoryRoutes } from "./modules/memory/routes";
import { createModelGateway, type ModelGateway } from "./modules/models/gateway";
import { registerModelCallStats } from "./modules/models/model-call-stats";
import { registerModelOverrides } from "./modules/models/model-overrides";
import { registerLocalModels } from "./modules/models/register-local-models";
import { modelsRoutes } from "./modules/models/routes";
import { findRunFor } from "./modules/orchestration/find-run-for";
import { listToolCalls } from "./modules/orchestration/list-tool-calls";
import { registerOrchestration } from "./modules/orchestration/register-orchestration";
import { lastEventSeq } from "./modules/orchestration/run-events";
import { listRuns, listRunsBefore, listRunsPaged } from "./modules/orchestration/run-store";
import {
  findNewestRuns,
  findRunSessions,
  NEWEST_RUN_JOIN,
} from "./modules/orchestration/session-run-facts";
import { publicApiRoutes } from "./modules/public-api/routes";
import { sessionRoutes } from "./modules/sessions/routes";
import { systemRoutes } from "./modules/system/routes";
import { captureServerLines } from "./modules/telemetry/capture-server-lines";
import { registerTelemetry } from "./modules/telemetry/routes";
import { templateRoutes } from "./modules/templates/routes";
import { toolRoutes } from "./modules/tools/routes";
import { ToolRegistry } from "./modules/tools/tool-registry";
import { apiKeyDeps } from "./modules/users/api-key-deps";
import { apiKeyRoutes } from "./modules/users/api-key-routes";
import { loadSignedInUserKeys } from "./modules/users/load-user-keys";
import { userRoutes } from "./modules/users/routes";
import { registerWebTools } from "./modules/web-tools/register-web-tools";
import { listWorkspaceMembers } from "./modules/workspaces/list-workspace-members";
import { workspaceRoutes } from "./modules/workspaces/routes";
import { workspaceCreditRoutes } from "./modules/workspaces/workspace-credit-routes";
import { registerAuth } from "./platform/auth";
import { registerCsrf } from "./platform/csrf";
import { answerFrameworkError, registerErrorHandling } from "./platform/errors";
import { registerJsonBodyParser } from "./platform/json-body";
import { createLogger } from "./platform/logger";
import { createMailer, type Mailer } from "./platform/mail";
import { registerNulGuard } from "./platform/nul-guard";
import { registerOpenApi } from "./platform/openapi";
import { registerRateLimit } from "./platform/rate-limit";
import { createRealtime, type Realtime } from "./platform/realtime";
import { connectRedis } from "./platform/redis";
import { registerSecurityHeaders } from "./platform/security-headers";
import { registerSpa } from "./platform/spa";
import { createSsrfGuard, type HostResolver } from "./platform/ssrf";

declare module "fastify" {
  interface FastifyInstance {
    config: AppConfig;
    db: Db;
    redis: Redis | undefined;
    realtime: Realtime;
    mailer: Mailer;
    appVersion: string;
    /**
     * Set when the process was asked to stop (SIGTERM): readiness answers 503 so the load
     * balancer sends nothing new while running work finishes (serve.ts).
     */
    lifecycle: { draining: boolean };
    /**
     * The ids of a workspace's members (modules/workspaces), for modules that must not import
     * it: a team pool's credit changes reach every member's sockets.
     */
    workspaceMemberIds(workspaceId: string): Promise<readonly string[]>;
    /** The model gateway: every model call goes through it (modules/models). */
    models: ModelGateway;
    /**
     * The tool registry (modules/tools, decision 058): each module that offers tools adds
     * its provider at registration (`app.tools.addProvider`); the approvals module sets its
     * gate (`app.tools.setGate`). The engine asks it at run start.
     */
    tools: ToolRegistry;
  }
}

export interface AppDeps {
  /** A database to use instead of opening the configured one (tests); the caller closes it. */
  db?: Db;
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: DestinationStream;
  /** Prefix for every Redis key and channel, so parallel test apps do not share state. */
  redisPrefix?: string;
  /** DNS for checking users' base URLs (tests answer from a table: no real DNS). */
  resolveHost?: HostResolver;
}

const REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"]
>;

/**
 * zod checks and serialises every route (fastify-type-provider-zod). Named as the compilers'
 * factories too (what setValidatorCompiler/setSerializerCompiler install), Fastify does not
 * load its default ones (ajv, fast-json-stringify) at start-up only to replace them
 * (decision 085). Fastify's types name those defaults' factories, hence the cast.
 */
const ZOD_COMPILERS = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as CompilersFactory;

/**
 * Builds the whole application without listening (docs/conventions.md): tests `inject` into it,
 * serve.ts listens. Migrations run here, so an app that is built is ready to serve.
 */
export async function buildApp(config: AppConfig, deps: AppDeps = {}): Promise<FastifyInstance> {
  // Warn/error lines of a request also go to the telemetry store (decision 021).
  const serverLines = captureServerLines();
  const app = Fastify({
    loggerInstance: createLogger(
      config.logLevel,
      serverLines.tee(deps.logStream),
    ) as FastifyBaseLogger,
    bodyLimit: MAX_BODY_BYTES,
    trustProxy: config.trustProxy,
    genReqId: (request) => {
      const given = request.headers[REQUEST_ID_HEADER];
      return typeof given === "string" && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: answerFrameworkError,
    // Behind a load balancer that keeps connections to the instances open between requests
    // (HAProxy in `npm run cluster`): the balancer, not Node's 5 s default, closes idle ones,
    // so a request never lands on a connection Node is closing at that moment.
    keepAliveTimeout: 75_000,
    schemaController: { compilersFactory: ZOD_COMPILERS },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const ownsDb = !deps.db;
  const db =
    deps.db ?? (await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  app.decorate("db", db);
  app.decorate("config", config);
  app.decorate("appVersion", pkg.version);
  app.decorate("lifecycle", { draining: false });
  app.decorate("workspaceMemberIds", async (workspaceId: string) =>
    (await listWorkspaceMembers(db, workspaceId)).map((member) => member.user_id),
  );
  await migrate(db);
  await seedDefaultAgreement(db);
  if (config.admin) await ensureAdmin(db, config.admin);

  const prefix = deps.redisPrefix ?? "cohort:";
  const redisConnections = config.redisUrl
    ? await connectRedis(config.redisUrl, app.log)
    : undefined;
  const redis = redisConnections?.main;
  app.decorate("redis", redis);

  app.addHook("onRequest", (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  registerErrorHandling(app);
  registerNulGuard(app);
  registerJsonBodyParser(app);
  await app.register(cookie, { secret: config.cookieSecret });
  await registerSecurityHeaders(app, {
    secure: config.secureCookies,
    websocket: config.realtimeTransports.includes("websocket"),
    firebase: config.firebase && {
      authDomain: config.firebase.authDomain,
      emulatorUrl: config.firebase.emulatorHost ? `http://${config.firebase.emulatorHost}` : null,
    },
  });
  await registerRateLimit(app, {
    perMinute: config.rateLimitPerMinute,
    redis,
    nameSpace: `${prefix}rl:`,
  });
  await registerOpenApi(app, pkg.version);
  registerCsrf(app, { key: config.cookieSecret, secureCookies: config.secureCookies });

  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    db,
    log: app.log,
    printLinks: config.env !== "production",
  });
  app.decorate("mailer", mailer);
  if (mailer.kind === "outbox" && config.env === "production") {
    app.log.warn(
      "SMTP_URL is not set: emails go to the dev outbox (admin area and log), not to users",
    );
  }
  // Stripe with STRIPE_SECRET_KEY, else the built-in dev checkout or none: chosen here, once.
  const payments = createPayments({
    stripe: config.billing.stripe,
    testCheckout: config.billing.testCheckout,
    db,
    publicUrl: config.publicUrl,
    log: app.log,
  });
  if (payments.kind === "off") {
    app.log.warn(
      "STRIPE_SECRET_KEY is not set: purchases are off (set TEST_CHECKOUT=1 to sell through the built-in test checkout)",
    );
  }
  const signIns = { idleDays: config.signInIdleDays, maxDays: config.signInMaxDays };
  registerAuth(
    app,
    (token) => resolveSignIn(db, token, signIns),
    (token, rider, params) => resolveSignInRiding(db, token, signIns, rider, params),
  );
  registerAgreementChecks(app, { redisPrefix: prefix });
  // Created before the modules, which add their handshake steps and events to it.
  app.decorate(
    "realtime",
    createRealtime(app, {
      transports: config.realtimeTransports,
      adapter: redisConnections?.socketAdapter(`${prefix}socket.io`),
      roomFeed: redisConnections && { feed: redisConnections.roomFeed, key: `${prefix}socket.io` },
    }),
  );

  await app.register(systemRoutes);
  // The admin area's on/off and price overrides sit on the catalogue (no restart needed).
  // Local model servers found on loopback ports add their models to it (decision 056).
  const local = registerLocalModels(app, config.models);
  const catalogue = await registerModelOverrides(app, db, local.catalogue);
  const onCallSettled = registerModelCallStats(app);
  app.decorate(
    "models",
    createModelGateway({
      config: config.models,
      log: app.log,
      catalogue,
      onCallSettled,
      localServers: local.localServers,
    }),
  );
  app.decorate(
    "ssrf",
    createSsrfGuard({
      ...(deps.resolveHost ? { resolve: deps.resolveHost } : {}),
      allowedNetworks: config.userBaseUrlAllowedNetworks,
    }),
  );
  // Before every module that adds a tool provider, and before the engine that uses them.
  app.decorate("tools", new ToolRegistry(app.log));
  registerWebTools(app, deps);
  // Modules that would import each other get what they need here, at registration.
  const keyDeps = apiKeyDeps(app);
  await app.register(modelsRoutes, {
    loadUserKeys: (principal) => loadSignedInUserKeys(keyDeps, principal),
  });
  await app.register(authRoutes);
  await app.register(userRoutes);
  await app.register(apiKeyRoutes);
  await app.register(accessTokenRoutes);
  await app.register(agreementRoutes);
  const documentStore = createDocumentStore(config.documents, config.dataDir);
  const imageStore = createDocumentStore(config.documents, config.dataDir, "images");
  const codeFileStore = createDocumentStore(config.documents, config.dataDir, "code-files");
  const accountStores = { store: documentStore, imageStore, codeFileStore };
  await app.register(adminRoutes, {
    // The same erasure as the holder's own deletion (export module), audited as the admin's.
    eraseAccount: (user, actor, reason) =>
      eraseAccount(accountErasureDeps(app, accountStores), user, { actor, reason }),
  });
  await app.register(billingRoutes, {
    payments,
    runSessions: (runIds) => findRunSessions(db, runIds),
  });
  if (config.billing.sweepIntervalMs > 0) {
    const sweeper = startHoldSweeper(creditsDeps(app), config.billing.sweepIntervalMs, app.log);
    // preClose: the sweeper stops before the database closes (onClose).
    app.addHook("preClose", () => sweeper.stop());
  }
  // After credits (the engine holds and settles through it); before the SPA's catch-all.
  // Before the engine, whose Critic runs code with it (decision 062).
  registerCodeRunner(app, config.codeRunner, codeFileStore);

  // Tool calls waiting for a person's decision (decision 059): its gate is set before the
  // engine starts, which may resume runs at once.
  await registerApprovals(app, { redisPrefix: prefix });
  await registerOrchestration(app, { redisPrefix: prefix });
  await app.register(sessionRoutes, {
    runs: {
      lastEventSeq: (sessionId) => lastEventSeq(app.orchestration.deps, sessionId),
      list: (sessionId) => listRuns(db, sessionId),
      listPaged: (sessionId, full) => listRunsPaged(db, sessionId, full),
      listBefore: (sessionId, before, limit) => listRunsBefore(db, sessionId, before, limit),
      toolCalls: (sessionId) => listToolCalls(db, sessionId),
      stopActive: (sessionId) => app.orchestration.control.cancelSessionRun(sessionId),
      eraseFiles: async (sessionId) => {
        await eraseSessionImages(db, imageStore, [sessionId]);
        await eraseSessionCodeFiles(db, codeFileStore, [sessionId]);
      },
      newest: (sessionIds) => findNewestRuns(db, sessionIds),
      newestRunJoin: NEWEST_RUN_JOIN,
    },
  });
  await app.register(cochatRoutes);
  await app.register(documentRoutes);
  await app.register(sessionDocumentRoutes);
  await registerImages(app, imageStore);
  await app.register(memoryRoutes, {
    runReadable: async (userId, runId) => {
      await findRunFor(db, userId, runId);
    },
  });
  await app.register(workspaceRoutes, {
    // A team being deleted: what its rows' cascade cannot do, by the modules that own it.
    beforeDeleted: async (workspaceId, sessionIds) => {
      for (const id of sessionIds) await app.orchestration.control.cancelSessionRun(id);
      // A team's id is no user's id: as the member or uploader argument it matches nothing,
      // so these touch exactly the team's own holds and documents.
      await releaseOpenHolds(creditsDeps(app), [workspaceId], workspaceId);
      for (const document of await listDocumentsToErase(db, workspaceId, [workspaceId])) {
        await deleteDocument(db, documentStore, document.userId, document.id);
      }
    },
  });
  await app.register(workspaceCreditRoutes);
  await app.register(templateRoutes);
  await app.register(toolRoutes);
  await app.register(exportRoutes, { imageStore });
  await app.register(accountDataRoutes, accountStores);
  await app.register(shareRoutes, { imageStore });
  // The public API: access tokens instead of sign-ins, over the same engine and credits.
  await app.register(publicApiRoutes);
  await app.register(mcpRoutes, { redisPrefix: prefix });
  await registerMcpServers(app);
  registerTelemetry(app, { serverLines });

  await registerSpa(app, config.webDistDir);

  app.addHook("onClose", async () => {
    await mailer.close();
    await redisConnections?.close();
    if (ownsDb) await db.close();
  });
  return app;
}
