import { randomBytes } from "node:crypto";
import { onTestFailed } from "vitest";
import { FakeProviderServer } from "../../apps/server/test/support/fake-provider/fake-provider-server";
import {
  adminToken,
  createSession,
  type FaultUser,
  grantCredits,
  sendMessage,
  signUp,
} from "./api";
import { findFaultTools } from "./find-fault-tools.mjs";
import { Instance } from "./instance";
import type { SentMessage } from "./invariants";
import { PrivatePostgres } from "./postgres";
import { ProviderRoute } from "./provider-route";
import { PrivateRedis } from "./redis";

export const ADMIN_EMAIL = "admin@cohort.test";
export const ADMIN_PASSWORD = "fault-Admin-passphrase-42";

/** The plan every run gets from the coordinator: one Coder step (plan → coder → synthesis). */
export const ONE_CODER_PLAN = {
  rationale: "One coder step is enough.",
  steps: [{ id: "s1", role: "coder", task: "Write the parser", dependsOn: [] }],
};

export const DRAFT_TEXT = "A draft from the fake provider.";

/**
 * Everything one fault test file runs on, all its own: a PostgreSQL server, a Redis, the fake
 * model provider (every hosted provider's base URL points at it, through a route of each
 * instance's own) and N instances of the built server sharing them, as `npm run cluster`
 * starts them (same COOKIE_SECRET and ENCRYPTION_KEY, a port each). HTTP goes straight to
 * each instance.
 */
export class FaultCluster {
  readonly instances: Instance[] = [];
  /** Each instance's way to the fake provider, by instance name. */
  readonly routes = new Map<string, ProviderRoute>();
  private adminBearer: string | null = null;

  private constructor(
    readonly postgres: PrivatePostgres,
    readonly redis: PrivateRedis,
    readonly fake: FakeProviderServer,
    private readonly env: Record<string, string>,
  ) {}

  static async start(
    options: { instances: number; env?: Record<string, string>; simulator?: boolean } = {
      instances: 2,
    },
  ): Promise<FaultCluster> {
    const tools = findFaultTools();
    if (!tools.ok) throw new Error(`The fault tests need: ${tools.missing.join("; ")}`);
    const [postgres, redis, fake] = await Promise.all([
      PrivatePostgres.start(tools),
      PrivateRedis.start(tools.redisServer),
      FakeProviderServer.start(),
    ]);
    fake.defaultReply = { text: DRAFT_TEXT, json: ONE_CODER_PLAN };
    const cluster = new FaultCluster(postgres, redis, fake, {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      COOKIE_SECRET: randomBytes(32).toString("base64url"),
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOG_LEVEL: "info",
      RATE_LIMIT_PER_MINUTE: "100000",
      SIGNUP_LIMIT_PER_HOUR: "100000",
      SIGNUP_CREDITS: "0",
      // `simulator`: no provider key, so every model call is the built-in simulator's.
      ...(options.simulator
        ? {}
        : {
            OPENAI_API_KEY: "sk-fault-openai",
            ANTHROPIC_API_KEY: "sk-ant-fault",
            GOOGLE_GENERATIVE_AI_API_KEY: "fault-google-key",
          }),
      MODEL_RETRY_BASE_DELAY_MS: "50",
      MODEL_RETRY_MAX_DELAY_MS: "1000",
      SHUTDOWN_GRACE_SECONDS: "5",
      LOCAL_MODEL_DISCOVERY: "0",
      ...options.env,
    });
    live.add(cluster);
    try {
      // The first instance migrates the database, then the others start on it, as
      // `npm run cluster` does (two instances migrating an empty database at once collide).
      await cluster.startInstance("app1");
      await Promise.all(
        Array.from({ length: options.instances - 1 }, (_, i) =>
          cluster.startInstance(`app${i + 2}`),
        ),
      );
      cluster.instances.sort((x, y) => x.name.localeCompare(y.name));
    } catch (error) {
      await cluster.close();
      throw error;
    }
    return cluster;
  }

  async startInstance(name: string, env: Record<string, string> = {}): Promise<Instance> {
    const route = await ProviderRoute.start(name, this.fake.url);
    this.routes.set(name, route);
    const instance = await Instance.start(name, { ...this.env, ...route.env, ...env });
    this.instances.push(instance);
    return instance;
  }

  route(instance: Instance): ProviderRoute {
    const found = this.routes.get(instance.name);
    if (!found) throw new Error(`no provider route for ${instance.name}`);
    return found;
  }

  instance(index: number): Instance {
    const found = this.instances[index];
    if (!found) throw new Error(`no instance ${index}`);
    return found;
  }

  /** The administrator's sign-in (made once, valid on every instance). */
  async admin(): Promise<string> {
    this.adminBearer ??= await adminToken(this.instance(0).url, ADMIN_EMAIL, ADMIN_PASSWORD);
    return this.adminBearer;
  }

  /** A new account with `credits` granted by the administrator. */
  async payingUser(credits = 500): Promise<FaultUser> {
    const via = this.instance(0).url;
    const user = await signUp(via);
    await grantCredits(via, await this.admin(), user.id, credits);
    return user;
  }

  /** A new session of `user` on `instance`, and a message sent to it (which starts a run). */
  async sendInNewSession(instance: Instance, user: FaultUser, text: string): Promise<SentMessage> {
    const session = await createSession(instance.url, user.token);
    const started = await sendMessage(instance.url, user.token, session.id, text);
    return {
      userId: user.id,
      token: user.token,
      sessionId: session.id,
      runId: started.run_id,
      messageId: started.message_id,
      text,
    };
  }

  /** Prints report() when the running test fails. */
  reportOnFailure(): void {
    onTestFailed(() => {
      console.log(this.report());
    });
  }

  /**
   * For a failed test: each instance's state and its warnings and errors (all of its last
   * output when it stopped by itself).
   */
  report(): string {
    return this.instances
      .map((i) => {
        const lines = i
          .logLines(40)
          .slice(-40)
          .map((l) => JSON.stringify(l).slice(0, 1_500));
        const tail = i.running || i.state.startsWith("killed") ? "" : `\n${i.log().slice(-6_000)}`;
        return `----- ${i.name} (${i.state}) -----\n${lines.join("\n")}${tail}`;
      })
      .join("\n");
  }

  async close(): Promise<void> {
    live.delete(this);
    await Promise.allSettled(this.instances.map((i) => i.terminate(10_000)));
    for (const instance of this.instances) instance.removeData();
    await Promise.allSettled([
      this.fake.close(),
      this.redis.stop(),
      ...[...this.routes.values()].map((r) => r.close()),
    ]);
    await this.postgres.drop();
  }

  /** What close() does, synchronously: for a test process that ends without its afterAll. */
  closeNow(): void {
    for (const instance of this.instances) instance.killNow();
    this.redis.killNow();
    this.postgres.dropNow();
  }
}

/** Clusters not closed yet: a test process that ends abruptly still stops their servers. */
const live = new Set<FaultCluster>();
process.once("exit", () => {
  for (const cluster of live) cluster.closeNow();
});
