import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { findRepoRoot } from "./platform/paths";

/**
 * The only reader of process.env (STYLE.md rule 1). Everything the process needs is parsed
 * here once, at start-up, into a frozen object; a bad value stops the process with the
 * variable's name.
 */
const booleanish = z
  .enum(["true", "false", "1", "0", "yes", "no", ""])
  .transform((v) => v === "true" || v === "1" || v === "yes");

const transports = z
  .string()
  .transform((v) =>
    v
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(["polling", "websocket"])).min(1, "name at least one transport"));

const base64Key32 = z
  .string()
  .refine((v) => Buffer.from(v, "base64").length === 32, "must be 32 bytes, base64-encoded");

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
    .optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  COOKIE_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  ENCRYPTION_KEY: base64Key32.optional(),
  REALTIME_TRANSPORTS: transports.default(["polling"]),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  TRUST_PROXY: booleanish.default(false),
  WEB_DIST_DIR: z.string().optional(),
});

export type Env = Record<string, string | undefined>;

export interface AppConfig {
  readonly env: "development" | "production" | "test";
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  readonly logLevel: string;
  readonly cookieSecret: string;
  readonly encryptionKey: Buffer;
  readonly realtimeTransports: readonly ("polling" | "websocket")[];
  readonly rateLimitPerMinute: number;
  readonly trustProxy: boolean;
  readonly webDistDir: string;
  readonly secureCookies: boolean;
}

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

interface StoredSecrets {
  cookieSecret: string;
  encryptionKey: string;
}

/**
 * Embedded mode generates its secrets on first start and keeps them in DATA_DIR, so a
 * restart keeps sessions and encrypted keys valid. Production must be given them.
 */
function loadOrCreateSecrets(dataDir: string): StoredSecrets {
  const file = path.join(dataDir, "secrets.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as StoredSecrets;
  mkdirSync(dataDir, { recursive: true });
  const secrets: StoredSecrets = {
    cookieSecret: randomBytes(48).toString("base64url"),
    encryptionKey: randomBytes(32).toString("base64"),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

export function loadConfig(env: Env = process.env): AppConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  const production = e.NODE_ENV === "production";
  if (production) {
    const missing = (["COOKIE_SECRET", "ENCRYPTION_KEY"] as const).filter((name) => !e[name]);
    if (missing.length > 0) {
      throw new ConfigError(missing.map((name) => `${name}: required when NODE_ENV=production`));
    }
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const stored = e.COOKIE_SECRET && e.ENCRYPTION_KEY ? null : loadOrCreateSecrets(dataDir);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return Object.freeze({
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    logLevel: e.LOG_LEVEL,
    cookieSecret: e.COOKIE_SECRET ?? (stored as StoredSecrets).cookieSecret,
    encryptionKey: Buffer.from(
      e.ENCRYPTION_KEY ?? (stored as StoredSecrets).encryptionKey,
      "base64",
    ),
    realtimeTransports: Object.freeze([...e.REALTIME_TRANSPORTS]),
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    trustProxy: e.TRUST_PROXY,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? path.join(findRepoRoot(), "apps/web/dist")),
    secureCookies: publicUrl.startsWith("https://"),
  });
}
