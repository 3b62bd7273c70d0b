import { createHmac, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  ceilToHundredths,
  hundredthsOf,
  SHARE_STREAMS_PER_ADDRESS,
  SHARE_STREAMS_PER_LINK,
  type TSignInProvider,
  ZSignInProvider,
} from "@cohort/contracts";
import { z } from "zod";
import {
  type OperatorMcpServer,
  readOperatorMcpServers,
} from "./modules/mcp-servers/operator-servers";
import { buildCatalogue, CatalogueError, readModelsConfigFile } from "./modules/models/catalogue";
import { legacyLocalEmbeddingName, resolveEmbeddingModel } from "./modules/models/embedding-models";
import type { ModelsConfig } from "./modules/models/models-config";
import {
  BRAVE_SEARCH_URL,
  DEFAULT_SEARCH_PRICE,
  TAVILY_SEARCH_URL,
  type WebSearchProviderConfig,
  type WebToolsConfig,
} from "./modules/web-tools/web-tools-config";
import { findRepoRoot } from "./platform/paths";
import { parseNetwork } from "./platform/ssrf";

/**
 * The only reader of process.env (docs/conventions.md). Everything the process needs is parsed
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

/** Comma-separated IP addresses or CIDR ranges (the SSRF guard's allow-lists). */
const networkList = z
  .string()
  .transform((v) =>
    v
      .split(",")
      .map((n) => n.trim())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z.string().refine((n) => {
        try {
          parseNetwork(n);
          return true;
        } catch {
          return false;
        }
      }, "each entry must be an IP address or CIDR range, e.g. 10.0.0.0/8"),
    ),
  );

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
  // auto: readable lines (pino-pretty) when stdout is a terminal, JSON lines otherwise.
  LOG_FORMAT: z.enum(["auto", "json", "pretty"]).default("auto"),
  // On SIGTERM: how long running runs may take to finish before the process stops them.
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(25),
  COOKIE_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  ENCRYPTION_KEY: base64Key32.optional(),
  // Keys rotated out of ENCRYPTION_KEY: still decrypt what they encrypted (comma-separated).
  PREVIOUS_ENCRYPTION_KEYS: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((k) => k.trim())
        .filter(Boolean),
    )
    .pipe(z.array(base64Key32))
    .default([]),
  REALTIME_TRANSPORTS: transports.default(["polling"]),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  // Requests one personal access token may make per minute (modules/access-tokens).
  ACCESS_TOKEN_RATE_PER_MINUTE: z.coerce.number().int().positive().default(60),
  SIGNUP_LIMIT_PER_HOUR: z.coerce.number().int().positive().default(10),
  SOCKET_SIGN_IN_CHECK_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  TRUST_PROXY: booleanish.default(false),
  WEB_DIST_DIR: z.string().optional(),
  // The route table's debug and test pages; off in production unless asked for (decision 030).
  DEBUG_ROUTES: booleanish.optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_ISSUER_URL: z.url().default("https://accounts.google.com"),
  FIREBASE_PROJECT_ID: z.string().min(1).optional(),
  FIREBASE_API_KEY: z.string().min(1).optional(),
  FIREBASE_AUTH_DOMAIN: z.string().min(1).optional(),
  FIREBASE_APP_ID: z.string().min(1).optional(),
  FIREBASE_STORAGE_BUCKET: z.string().min(1).optional(),
  FIREBASE_MESSAGING_SENDER_ID: z.string().min(1).optional(),
  FIREBASE_PROVIDERS: z
    .string()
    .default("google")
    .transform((value) => [
      ...new Set(
        value
          .split(",")
          .map((item) => item.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(
      z.array(ZSignInProvider).min(1, "name at least one of google, github, facebook, twitter"),
    ),
  FIREBASE_AUTH_EMULATOR_HOST: z
    .string()
    .regex(/^[\w.-]+:\d+$/, "must be host:port of the Firebase Auth emulator")
    .optional(),
  FIREBASE_JWKS_URL: z
    .url()
    .default(
      "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com",
    ),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(6, "must be at least 6 characters").max(128).optional(),
  SIGN_IN_IDLE_DAYS: z.coerce.number().positive().max(365).default(14),
  SIGN_IN_MAX_DAYS: z.coerce.number().positive().max(3650).default(60),
  // Model providers: a provider without a key is answered by the built-in simulator.
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url().default("https://api.openai.com/v1"),
  OPENAI_API: z.enum(["responses", "chat"]).default("responses"),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  ANTHROPIC_BASE_URL: z.url().default("https://api.anthropic.com/v1"),
  GOOGLE_GENERATIVE_AI_API_KEY: z.string().min(1).optional(),
  GOOGLE_BASE_URL: z.url().default("https://generativelanguage.googleapis.com/v1beta"),
  OPENAI_COMPATIBLE_BASE_URL: z.url().optional(),
  OPENAI_COMPATIBLE_API_KEY: z.string().min(1).optional(),
  OPENAI_COMPATIBLE_MODELS: z.string().optional(),
  // Embedding models the same server serves (comma-separated); each becomes local:<name>.
  OPENAI_COMPATIBLE_EMBEDDING_MODELS: z.string().optional(),
  // Image models the same server's images endpoint serves (decision 064), e.g. Stable Diffusion.
  OPENAI_COMPATIBLE_IMAGE_MODELS: z.string().optional(),
  MODELS_CONFIG_FILE: z.string().min(1).optional(),
  // Local model servers found on loopback at start (decision 056): on unless set to 0, and
  // never when OPENAI_COMPATIBLE_BASE_URL names the server. Ports as `port` or `port=Name`.
  LOCAL_MODEL_DISCOVERY: booleanish.default(true),
  LOCAL_MODEL_PORTS: z
    .string()
    .default("11434=Ollama,1234=LM Studio,8080=llama.cpp,8000=vLLM")
    .transform((value, context) => {
      const ports: { port: number; name: string | undefined }[] = [];
      for (const item of value
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean)) {
        const match = /^(\d{1,5})(?:=(.{1,40}))?$/.exec(item);
        const port = Number(match?.[1]);
        if (!match || port < 1 || port > 65_535) {
          context.addIssue({ code: "custom", message: `"${item}" is not a port (or port=Name)` });
          return z.NEVER;
        }
        ports.push({ port, name: match[2]?.trim() || undefined });
      }
      return ports;
    }),
  LOCAL_MODEL_PROBE_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(800),
  MODEL_CALL_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(120_000),
  MODEL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  MODEL_RETRY_BASE_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(500),
  MODEL_RETRY_MAX_DELAY_MS: z.coerce.number().int().min(0).max(300_000).default(20_000),
  SIMULATOR_TOKENS_PER_SECOND: z.coerce.number().min(0).max(1_000_000).default(60),
  // Simulated answers are free (decision 053); 1 charges them at catalogue prices (demos).
  SIMULATOR_CHARGES: booleanish.default(false),
  // Users' own base URLs (OpenAI-compatible) may reach only public addresses, plus these
  // networks (comma-separated CIDRs, e.g. a LAN model server of a self-hosted install).
  USER_BASE_URL_ALLOWED_NETWORKS: networkList.default([]),
  // MCP servers as tool sources (modules/mcp-servers, decision 060): the operator's own
  // servers (a JSON file; the only place a stdio server may be named) and the time limits.
  MCP_SERVERS_FILE: z.string().min(1).optional(),
  MCP_CALL_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(60),
  MCP_CONNECT_TIMEOUT_SECONDS: z.coerce.number().min(1).max(600).default(15),
  // CoChat Unlimited: no credits, but a fair-use limit per user, and the product limits' 180 s time-out.
  COCHAT_MESSAGES_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(60),
  COCHAT_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(180),
  // Web tools (modules/web-tools, decision 061): read_url through the SSRF guard, and
  // web_search through SearXNG, Brave Search or Tavily (absent without one of them).
  READ_URL_ENABLED: booleanish.default(true),
  READ_URL_ALLOWED_NETWORKS: networkList.default([]),
  READ_URL_MAX_BYTES: z.coerce.number().int().min(1024).max(50_000_000).default(2_000_000),
  READ_URL_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  READ_URL_MAX_CHARS: z.coerce.number().int().min(500).max(200_000).default(12_000),
  WEB_SEARCH_PROVIDER: z.enum(["searxng", "brave", "tavily"]).optional(),
  SEARXNG_URL: z.url().optional(),
  BRAVE_API_KEY: z.string().min(1).optional(),
  BRAVE_SEARCH_URL: z.url().default(BRAVE_SEARCH_URL),
  TAVILY_API_KEY: z.string().min(1).optional(),
  TAVILY_SEARCH_URL: z.url().default(TAVILY_SEARCH_URL),
  WEB_SEARCH_RESULTS: z.coerce.number().int().min(1).max(20).default(5),
  WEB_SEARCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  // Decimal credits per search; unset: 0.25 on Brave and Tavily, 0 on SearXNG.
  WEB_SEARCH_CREDITS: z.coerce.number().min(0).max(1000).optional(),

  // A tool call waiting for a person's approval is denied after this long (decision 059).
  APPROVAL_TIMEOUT_SECONDS: z.coerce.number().min(1).max(86_400).default(600),
  PLAN_REVIEW_TIMEOUT_SECONDS: z.coerce.number().min(1).max(86_400).default(1800),
  RUN_SWEEP_INTERVAL_SECONDS: z.coerce.number().min(0).max(3600).default(5),
  // Credits and billing: without STRIPE_SECRET_KEY payments run on the built-in dev checkout.
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_/, "must be a Stripe secret key (sk_...)")
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_/, "must be a webhook secret (whsec_...)")
    .optional(),
  STRIPE_API_BASE: z.url().optional(),
  // Without Stripe in production purchases are off unless the operator asks for the built-in
  // test checkout by name (decision 052).
  TEST_CHECKOUT: booleanish.optional(),
  SIGNUP_CREDITS: z.coerce.number().int().min(0).max(1_000_000).optional(),
  HOLD_TTL_MINUTES: z.coerce.number().positive().max(1440).default(15),
  CREDITS_SWEEP_INTERVAL_SECONDS: z.coerce.number().min(0).max(3600).default(60),
  // Client telemetry (modules/telemetry, docs/decisions/021-telemetry.md).
  TELEMETRY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  TELEMETRY_FLUSH_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  TELEMETRY_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(500),
  TELEMETRY_QUEUE_LIMIT: z.coerce.number().int().min(100).max(1_000_000).default(50_000),
  TELEMETRY_LOGS_PER_MINUTE: z.coerce.number().int().positive().default(60),
  TELEMETRY_ANALYTICS_PER_MINUTE: z.coerce.number().int().positive().default(600),
  // What anonymous visitors from one address may send per UTC day; beyond it analytics are
  // dropped and counted (decision 052).
  TELEMETRY_ANONYMOUS_BYTES_PER_DAY: z.coerce.number().int().min(1024).max(1e10).default(1_048_576),
  TELEMETRY_SWEEP_INTERVAL_SECONDS: z.coerce.number().min(0).max(86_400).default(3600),
  // Documents (modules/documents, decision 036): limits, extraction worker, storage, embeddings.
  DOCUMENT_MAX_MB: z.coerce.number().positive().max(1024).default(20),
  DOCUMENT_MAX_PAGES: z.coerce.number().int().min(1).max(100_000).default(1000),
  DOCUMENT_EXTRACT_TIMEOUT_MS: z.coerce.number().int().min(1).max(3_600_000).default(120_000),
  DOCUMENT_WORKER_MEMORY_MB: z.coerce.number().int().min(32).max(16_384).default(512),
  DOCUMENT_MAX_UNZIPPED_MB: z.coerce.number().positive().max(4096).default(200),
  S3_BUCKET: z.string().min(1).optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: booleanish.default(false),
  // An embedding model of the catalogue (e.g. text-embedding-3-small): hybrid search.
  EMBEDDING_MODEL: z.string().min(1).optional(),
  // run_code (modules/code-runner, decision 062): the embedded sandbox's limits, its price,
  // and a Jupyter server that replaces it.
  CODE_RUN_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(10),
  CODE_RUN_MEMORY_MB: z.coerce.number().int().min(32).max(4096).default(256),
  CODE_RUN_OUTPUT_KB: z.coerce.number().int().min(1).max(102_400).default(1024),
  CODE_RUN_WARM: booleanish.default(true),
  // Credits per started second of execution (e.g. 0.01).
  CODE_RUN_CREDITS_PER_SECOND: z.coerce.number().min(0).max(1000).default(0.01),
  JUPYTER_URL: z.url().optional(),
  JUPYTER_TOKEN: z.string().min(1).optional(),
  JUPYTER_KERNEL: z.string().min(1).default("python3"),
  // PDF export (modules/export, decision 050): worker threads with time and memory limits.
  PDF_EXPORT_RENDERERS: z.coerce.number().int().min(1).max(64).default(2),
  PDF_EXPORT_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(60_000),
  PDF_EXPORT_MEMORY_MB: z.coerce.number().int().min(32).max(8192).default(256),
  PDF_EXPORT_MAX_PAGES: z.coerce.number().int().min(1).max(10_000).default(300),
  // Share links' live streams open at once (modules/export, decision 051).
  SHARE_STREAMS_PER_ADDRESS: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(SHARE_STREAMS_PER_ADDRESS),
  SHARE_STREAMS_PER_LINK: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(SHARE_STREAMS_PER_LINK),
  // The tool layer (modules/tools, decision 058): output cap, steps per lane, time per call.
  TOOL_OUTPUT_MAX_CHARS: z.coerce.number().int().min(1000).max(1_000_000).default(16_000),
  TOOL_STEPS_MAX: z.coerce.number().int().min(1).max(20).default(6),
  TOOL_TIMEOUT_MAX_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
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
  readonly logFormat: "auto" | "json" | "pretty";
  readonly shutdownGraceMs: number;
  readonly cookieSecret: string;
  readonly encryptionKey: Buffer;
  /** Earlier ENCRYPTION_KEYs, kept to decrypt what was encrypted before a rotation. */
  readonly previousEncryptionKeys: readonly Buffer[];
  /** Networks users' own base URLs may reach besides public addresses (platform/ssrf.ts). */
  readonly userBaseUrlAllowedNetworks: readonly string[];
  readonly realtimeTransports: readonly ("polling" | "websocket")[];
  readonly rateLimitPerMinute: number;
  /** Requests one personal access token may make per minute (modules/access-tokens). */
  readonly accessTokenRatePerMinute: number;
  /** Accounts one IP address may create per hour (auth/sign-up.ts). */
  readonly signupLimitPerHour: number;
  /** How often open sockets' sign-ins are re-checked for expiry (auth). */
  readonly socketSignInCheckMs: number;
  readonly trustProxy: boolean;
  readonly webDistDir: string;
  /** Whether the debug and test pages of the route table are served (else they are 404s). */
  readonly debugRoutes: boolean;
  readonly secureCookies: boolean;
  /** SMTP server URL; absent means the dev outbox (database + log). */
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  /** Server-side Google sign-in (OIDC code flow + PKCE); absent when not configured. */
  readonly google:
    | { readonly clientId: string; readonly clientSecret: string; readonly issuerUrl: string }
    | undefined;
  /** Firebase ID-token verification for POST /api/auth/register; absent when not configured. */
  readonly firebase:
    | {
        readonly projectId: string;
        readonly jwksUrl: string;
        readonly apiKey: string | undefined;
        readonly authDomain: string;
        readonly appId: string | undefined;
        readonly storageBucket: string | undefined;
        readonly messagingSenderId: string | undefined;
        /** Popup providers offered on the login screen, in order. */
        readonly providers: readonly TSignInProvider[];
        /** host:port of the Auth emulator; only then are its unsigned tokens accepted. */
        readonly emulatorHost: string | undefined;
      }
    | undefined;
  /** The administrator created or updated at start-up. */
  readonly admin: { readonly email: string; readonly password: string } | undefined;
  readonly signInIdleDays: number;
  readonly signInMaxDays: number;
  /** Model providers, the catalogue file and call reliability settings. */
  readonly models: ModelsConfig;
  readonly billing: BillingConfig;
  readonly telemetry: TelemetryConfig;
  readonly mcpServers: {
    /** The operator's servers from MCP_SERVERS_FILE (empty without one). */
    readonly operator: readonly OperatorMcpServer[];
    readonly callTimeoutMs: number;
    readonly connectTimeoutMs: number;
  };
  readonly cochat: {
    /** Fair use of CoChat Unlimited, per user. */
    readonly messagesPerHour: number;
    /** Bound on one CoChat answer, server side (the product limits: 180 s). */
    readonly timeoutMs: number;
  };
  /** How long a tool call waits for a person's approval before it is denied (decision 059). */
  readonly approvalTimeoutMs: number;
  /** How long a run waits in `planned` for a person to start it (decision 069). */
  readonly planReviewTimeoutMs: number;
  /**
   * PostgreSQL: how often an instance looks for runs whose instance stopped beating (0: never;
   * only for a test that counts its own statements).
   */
  readonly runSweepIntervalMs: number;
  readonly documents: DocumentsConfig;
  /** Bounds on share links' open live streams, per address and per link (decision 051). */
  readonly shareStreams: { readonly perAddress: number; readonly perLink: number };
  readonly pdfExport: PdfExportConfig;
  readonly codeRunner: CodeRunnerConfig;
  /** The tool layer (decision 058). */
  readonly tools: ToolsConfig;
  /** read_url and web_search (modules/web-tools). */
  readonly webTools: WebToolsConfig;
}

/** The tool layer's bounds (modules/tools, decision 058). */
export interface ToolsConfig {
  /** The most characters of one tool's output a model sees (TOOL_OUTPUT_MAX_CHARS). */
  readonly outputMaxChars: number;
  /** The most model turns of one lane's call with tools (TOOL_STEPS_MAX). */
  readonly stepsMax: number;
  /** The longest any one tool call may take, whatever the tool asks for (TOOL_TIMEOUT_MAX_MS). */
  readonly timeoutMaxMs: number;
}

/** run_code's sandbox (decision 062). */
export interface CodeRunnerConfig {
  /** A run still going after this long is stopped (its process killed). */
  readonly timeoutMs: number;
  /** The engine's memory (wasm heap) limit per run. */
  readonly memoryBytes: number;
  /** stdout + stderr beyond this stop the run. */
  readonly outputBytes: number;
  /** Keep one started sandbox per language waiting for the next run. */
  readonly warm: boolean;
  /** Hundredths of a credit per started second of execution. */
  readonly pricePerSecond: number;
  /** A Jupyter server's kernels run the code instead of the embedded sandbox. */
  readonly jupyter:
    | { readonly url: string; readonly token: string | undefined; readonly kernel: string }
    | undefined;
}

/** PDF export's renderers (decision 050). */
export interface PdfExportConfig {
  /** Renders at once per instance; one more is answered 503 with Retry-After. */
  readonly renderers: number;
  /** A render still running after this long is stopped (its thread terminated): 422. */
  readonly timeoutMs: number;
  /** The render thread's heap limit; reaching it stops the render: 422. */
  readonly memoryMb: number;
  /** A longer PDF stops there with a note that it is truncated. */
  readonly maxPages: number;
}

export interface DocumentsConfig {
  /** The largest file one upload may carry (DOCUMENT_MAX_MB). */
  readonly maxFileBytes: number;
  /** PDFs with more pages are refused at extraction. */
  readonly maxPages: number;
  /** Extraction of one document is stopped (its worker terminated) after this long. */
  readonly extractTimeoutMs: number;
  /** The extraction worker's heap limit. */
  readonly workerMemoryMb: number;
  /** A DOCX whose parts inflate beyond this is refused as a zip bomb. */
  readonly maxUnzippedBytes: number;
  /** S3-compatible storage; absent means files under DATA_DIR/documents. */
  readonly s3:
    | {
        readonly bucket: string;
        readonly endpoint: string | undefined;
        readonly region: string;
        readonly accessKeyId: string | undefined;
        readonly secretAccessKey: string | undefined;
        readonly forcePathStyle: boolean;
      }
    | undefined;
  /** The catalogue id of the embedding model; absent means keyword-only search. */
  readonly embeddingModel: string | undefined;
}

export interface TelemetryConfig {
  /** Stored logs and analytics older than this are deleted by the sweeper. */
  readonly retentionDays: number;
  /** Accepted entries are written at least this often, or sooner when a batch fills. */
  readonly flushIntervalMs: number;
  readonly batchSize: number;
  /** Entries waiting to be written beyond which ingestion answers 503 instead of queueing. */
  readonly queueLimit: number;
  /** Per signed-in user (else per IP) per minute, for POST /api/logs and /api/analytics/*. */
  readonly logsPerMinute: number;
  readonly analyticsPerMinute: number;
  /** Bytes of analytics anonymous senders from one (truncated) address may send per UTC day. */
  readonly anonymousBytesPerDay: number;
  /** How often the retention sweeper runs; 0 turns it off. */
  readonly sweepIntervalMs: number;
}

export interface BillingConfig {
  /** Stripe Checkout and webhooks; absent means the built-in dev checkout or none. */
  readonly stripe: { readonly secretKey: string; readonly apiBase: URL | undefined } | undefined;
  /**
   * Without Stripe: whether the built-in test checkout sells (TEST_CHECKOUT, default on except
   * in production). When false and there is no Stripe, purchases answer 503.
   */
  readonly testCheckout: boolean;
  /**
   * Verifies webhook signatures: STRIPE_WEBHOOK_SECRET, or on the dev checkout a secret
   * derived from COOKIE_SECRET, with which the dev checkout signs its own events.
   */
  readonly webhookSecret: string;
  /** Credits a new account starts with (ledger reason signup_grant). */
  readonly signupCredits: number;
  /** How long a credit hold stays open before the sweeper releases it. */
  readonly holdTtlMs: number;
  /** How often the sweeper looks for expired holds; 0 turns the timer off. */
  readonly sweepIntervalMs: number;
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
 * restart keeps sign-ins and encrypted keys valid. Production must be given them.
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

/**
 * Variables renamed since they were documented (decision 023). Still setting one would
 * silently fall back to the default, so it stops the start with the new name instead.
 */
const RENAMED = {
  SESSION_IDLE_DAYS: "SIGN_IN_IDLE_DAYS",
  SESSION_MAX_DAYS: "SIGN_IN_MAX_DAYS",
  SOCKET_SESSION_CHECK_MS: "SOCKET_SIGN_IN_CHECK_MS",
} as const;

function readOperatorMcpServersOrStop(file: string | undefined): readonly OperatorMcpServer[] {
  if (!file) return Object.freeze([]);
  try {
    return Object.freeze(readOperatorMcpServers(file));
  } catch (error) {
    throw new ConfigError([`MCP_SERVERS_FILE: ${(error as Error).message}`]);
  }
}

export function loadConfig(env: Env = process.env): AppConfig {
  const renamed = Object.entries(RENAMED).filter(([old]) => env[old] !== undefined);
  if (renamed.length > 0) {
    throw new ConfigError(renamed.map(([old, now]) => `${old}: renamed ${now}; set that instead`));
  }
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
  const pairs = [
    ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"],
    ["ADMIN_EMAIL", "ADMIN_PASSWORD"],
  ] as const;
  const unpaired = pairs.flatMap(([a, b]) =>
    Boolean(e[a]) === Boolean(e[b])
      ? []
      : [`${e[a] ? b : a}: required together with ${e[a] ? a : b}`],
  );
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    unpaired.push("S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: set both or neither");
  }
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    unpaired.push("STRIPE_WEBHOOK_SECRET: required together with STRIPE_SECRET_KEY");
  }
  if (e.SIGN_IN_IDLE_DAYS > e.SIGN_IN_MAX_DAYS) {
    unpaired.push("SIGN_IN_IDLE_DAYS: must not exceed SIGN_IN_MAX_DAYS");
  }
  if (unpaired.length > 0) throw new ConfigError(unpaired);
  const dataDir = path.resolve(e.DATA_DIR);
  const stored = e.COOKIE_SECRET && e.ENCRYPTION_KEY ? null : loadOrCreateSecrets(dataDir);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  const models = modelsConfig(e);
  const webTools = webToolsConfig(e);
  return Object.freeze({
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    cookieSecret: e.COOKIE_SECRET ?? (stored as StoredSecrets).cookieSecret,
    encryptionKey: Buffer.from(
      e.ENCRYPTION_KEY ?? (stored as StoredSecrets).encryptionKey,
      "base64",
    ),
    realtimeTransports: Object.freeze([...e.REALTIME_TRANSPORTS]),
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    accessTokenRatePerMinute: e.ACCESS_TOKEN_RATE_PER_MINUTE,
    signupLimitPerHour: e.SIGNUP_LIMIT_PER_HOUR,
    socketSignInCheckMs: e.SOCKET_SIGN_IN_CHECK_MS,
    trustProxy: e.TRUST_PROXY,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? path.join(findRepoRoot(), "apps/web/dist")),
    debugRoutes: e.DEBUG_ROUTES ?? !production,
    secureCookies: publicUrl.startsWith("https://"),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `Cohort <no-reply@${new URL(publicUrl).hostname}>`,
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? Object.freeze({
            clientId: e.GOOGLE_CLIENT_ID,
            clientSecret: e.GOOGLE_CLIENT_SECRET,
            issuerUrl: e.GOOGLE_ISSUER_URL.replace(/\/+$/, ""),
          })
        : undefined,
    firebase: e.FIREBASE_PROJECT_ID
      ? Object.freeze({
          projectId: e.FIREBASE_PROJECT_ID,
          jwksUrl: e.FIREBASE_JWKS_URL,
          apiKey: e.FIREBASE_API_KEY,
          authDomain: e.FIREBASE_AUTH_DOMAIN ?? `${e.FIREBASE_PROJECT_ID}.firebaseapp.com`,
          appId: e.FIREBASE_APP_ID,
          storageBucket: e.FIREBASE_STORAGE_BUCKET,
          messagingSenderId: e.FIREBASE_MESSAGING_SENDER_ID,
          providers: Object.freeze([...e.FIREBASE_PROVIDERS]),
          emulatorHost: e.FIREBASE_AUTH_EMULATOR_HOST,
        })
      : undefined,
    admin:
      e.ADMIN_EMAIL && e.ADMIN_PASSWORD
        ? Object.freeze({ email: e.ADMIN_EMAIL.toLowerCase(), password: e.ADMIN_PASSWORD })
        : undefined,
    signInIdleDays: e.SIGN_IN_IDLE_DAYS,
    signInMaxDays: e.SIGN_IN_MAX_DAYS,
    models,
    billing: billingConfig(e, e.COOKIE_SECRET ?? (stored as StoredSecrets).cookieSecret),
    previousEncryptionKeys: Object.freeze(
      e.PREVIOUS_ENCRYPTION_KEYS.map((k) => Buffer.from(k, "base64")),
    ),
    userBaseUrlAllowedNetworks: Object.freeze([...e.USER_BASE_URL_ALLOWED_NETWORKS]),
    telemetry: Object.freeze({
      retentionDays: e.TELEMETRY_RETENTION_DAYS,
      flushIntervalMs: e.TELEMETRY_FLUSH_INTERVAL_MS,
      batchSize: e.TELEMETRY_BATCH_SIZE,
      queueLimit: e.TELEMETRY_QUEUE_LIMIT,
      logsPerMinute: e.TELEMETRY_LOGS_PER_MINUTE,
      analyticsPerMinute: e.TELEMETRY_ANALYTICS_PER_MINUTE,
      anonymousBytesPerDay: e.TELEMETRY_ANONYMOUS_BYTES_PER_DAY,
      sweepIntervalMs: Math.round(e.TELEMETRY_SWEEP_INTERVAL_SECONDS * 1000),
    }),
    mcpServers: Object.freeze({
      operator: readOperatorMcpServersOrStop(e.MCP_SERVERS_FILE),
      callTimeoutMs: Math.round(e.MCP_CALL_TIMEOUT_SECONDS * 1000),
      connectTimeoutMs: Math.round(e.MCP_CONNECT_TIMEOUT_SECONDS * 1000),
    }),
    cochat: Object.freeze({
      messagesPerHour: e.COCHAT_MESSAGES_PER_HOUR,
      timeoutMs: Math.round(e.COCHAT_TIMEOUT_SECONDS * 1000),
    }),
    approvalTimeoutMs: Math.round(e.APPROVAL_TIMEOUT_SECONDS * 1000),
    planReviewTimeoutMs: Math.round(e.PLAN_REVIEW_TIMEOUT_SECONDS * 1000),
    runSweepIntervalMs: Math.round(e.RUN_SWEEP_INTERVAL_SECONDS * 1000),
    documents: documentsConfig(e, models),
    codeRunner: Object.freeze({
      timeoutMs: Math.round(e.CODE_RUN_TIMEOUT_SECONDS * 1000),
      memoryBytes: e.CODE_RUN_MEMORY_MB * 1024 * 1024,
      outputBytes: e.CODE_RUN_OUTPUT_KB * 1024,
      warm: e.CODE_RUN_WARM,
      pricePerSecond: hundredthsOf(e.CODE_RUN_CREDITS_PER_SECOND),
      jupyter: e.JUPYTER_URL
        ? Object.freeze({ url: e.JUPYTER_URL, token: e.JUPYTER_TOKEN, kernel: e.JUPYTER_KERNEL })
        : undefined,
    }),
    pdfExport: Object.freeze({
      renderers: e.PDF_EXPORT_RENDERERS,
      timeoutMs: e.PDF_EXPORT_TIMEOUT_MS,
      memoryMb: e.PDF_EXPORT_MEMORY_MB,
      maxPages: e.PDF_EXPORT_MAX_PAGES,
    }),
    shareStreams: Object.freeze({
      perAddress: e.SHARE_STREAMS_PER_ADDRESS,
      perLink: e.SHARE_STREAMS_PER_LINK,
    }),
    tools: Object.freeze({
      outputMaxChars: e.TOOL_OUTPUT_MAX_CHARS,
      stepsMax: e.TOOL_STEPS_MAX,
      timeoutMaxMs: e.TOOL_TIMEOUT_MAX_MS,
    }),
    webTools,
  });
}

/**
 * The search provider: WEB_SEARCH_PROVIDER names one when several are configured, else the
 * first configured of SearXNG, Brave, Tavily; naming one that lacks its setting stops the start.
 */
function webToolsConfig(e: z.infer<typeof EnvSchema>): WebToolsConfig {
  const configured: Record<WebSearchProviderConfig["kind"], WebSearchProviderConfig | undefined> = {
    searxng: e.SEARXNG_URL ? { kind: "searxng", url: e.SEARXNG_URL } : undefined,
    brave: e.BRAVE_API_KEY
      ? { kind: "brave", url: e.BRAVE_SEARCH_URL, apiKey: e.BRAVE_API_KEY }
      : undefined,
    tavily: e.TAVILY_API_KEY
      ? { kind: "tavily", url: e.TAVILY_SEARCH_URL, apiKey: e.TAVILY_API_KEY }
      : undefined,
  };
  const needs = { searxng: "SEARXNG_URL", brave: "BRAVE_API_KEY", tavily: "TAVILY_API_KEY" };
  if (e.WEB_SEARCH_PROVIDER && !configured[e.WEB_SEARCH_PROVIDER]) {
    throw new ConfigError([
      `WEB_SEARCH_PROVIDER: ${e.WEB_SEARCH_PROVIDER} needs ${needs[e.WEB_SEARCH_PROVIDER]}`,
    ]);
  }
  const provider = e.WEB_SEARCH_PROVIDER
    ? configured[e.WEB_SEARCH_PROVIDER]
    : (configured.searxng ?? configured.brave ?? configured.tavily);
  return Object.freeze({
    readUrl: Object.freeze({
      enabled: e.READ_URL_ENABLED,
      allowedNetworks: Object.freeze([...e.READ_URL_ALLOWED_NETWORKS]),
      maxBytes: e.READ_URL_MAX_BYTES,
      timeoutMs: e.READ_URL_TIMEOUT_MS,
      maxChars: e.READ_URL_MAX_CHARS,
    }),
    webSearch: Object.freeze({
      provider: provider && Object.freeze(provider),
      results: e.WEB_SEARCH_RESULTS,
      timeoutMs: e.WEB_SEARCH_TIMEOUT_MS,
      price:
        e.WEB_SEARCH_CREDITS !== undefined
          ? ceilToHundredths(e.WEB_SEARCH_CREDITS)
          : provider
            ? DEFAULT_SEARCH_PRICE[provider.kind]
            : 0,
    }),
  });
}

function documentsConfig(e: z.infer<typeof EnvSchema>, models: ModelsConfig): DocumentsConfig {
  const MB = 1024 * 1024;
  return Object.freeze({
    maxFileBytes: Math.round(e.DOCUMENT_MAX_MB * MB),
    maxPages: e.DOCUMENT_MAX_PAGES,
    extractTimeoutMs: e.DOCUMENT_EXTRACT_TIMEOUT_MS,
    workerMemoryMb: e.DOCUMENT_WORKER_MEMORY_MB,
    maxUnzippedBytes: Math.round(e.DOCUMENT_MAX_UNZIPPED_MB * MB),
    s3: e.S3_BUCKET
      ? Object.freeze({
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        })
      : undefined,
    embeddingModel: e.EMBEDDING_MODEL ? embeddingModelId(e.EMBEDDING_MODEL, models) : undefined,
  });
}

/** EMBEDDING_MODEL as the catalogue id it names; unknown or unusable stops the start. */
function embeddingModelId(setting: string, models: ModelsConfig): string {
  const catalogue = buildCatalogue({
    file: models.catalogueFile,
    localModels: models.openaiCompatible.models,
    localEmbeddingModels: models.openaiCompatible.embeddingModels ?? [],
    localImageModels: models.openaiCompatible.imageModels ?? [],
  });
  try {
    return resolveEmbeddingModel(catalogue, models, setting).id;
  } catch (error) {
    if (!(error instanceof CatalogueError)) throw error;
    throw new ConfigError(error.issues.map((issue) => `EMBEDDING_MODEL: ${issue}`));
  }
}

function billingConfig(e: z.infer<typeof EnvSchema>, cookieSecret: string): BillingConfig {
  const stripe = e.STRIPE_SECRET_KEY
    ? Object.freeze({
        secretKey: e.STRIPE_SECRET_KEY,
        apiBase: e.STRIPE_API_BASE ? new URL(e.STRIPE_API_BASE) : undefined,
      })
    : undefined;
  const devSecret = `whsec_dev_${createHmac("sha256", cookieSecret).update("cohort dev checkout webhook").digest("base64url")}`;
  return Object.freeze({
    stripe,
    testCheckout: !stripe && (e.TEST_CHECKOUT ?? e.NODE_ENV !== "production"),
    webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? devSecret,
    // The data model says accounts start at 0; with only the dev checkout, 50 lets someone trying
    // Cohort run a task at once and still see the whole credit flow.
    signupCredits: e.SIGNUP_CREDITS ?? (stripe ? 0 : 50),
    holdTtlMs: Math.round(e.HOLD_TTL_MINUTES * 60_000),
    sweepIntervalMs: Math.round(e.CREDITS_SWEEP_INTERVAL_SECONDS * 1000),
  });
}

function modelsConfig(e: z.infer<typeof EnvSchema>): ModelsConfig {
  const localModels = (e.OPENAI_COMPATIBLE_MODELS ?? "")
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  const localEmbeddingModels = [
    ...new Set(
      [
        ...(e.OPENAI_COMPATIBLE_EMBEDDING_MODELS ?? "").split(",").map((m) => m.trim()),
        legacyLocalEmbeddingName(e.EMBEDDING_MODEL),
      ].filter((m): m is string => Boolean(m)),
    ),
  ];
  const localImageModels = (e.OPENAI_COMPATIBLE_IMAGE_MODELS ?? "")
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  if (e.OPENAI_COMPATIBLE_BASE_URL && localModels.length === 0 && localImageModels.length === 0) {
    throw new ConfigError([
      "OPENAI_COMPATIBLE_MODELS: name the server's models (comma-separated) when OPENAI_COMPATIBLE_BASE_URL is set",
    ]);
  }
  if (!e.OPENAI_COMPATIBLE_BASE_URL && localImageModels.length > 0) {
    throw new ConfigError([
      "OPENAI_COMPATIBLE_IMAGE_MODELS: set OPENAI_COMPATIBLE_BASE_URL to the server that serves them",
    ]);
  }
  let catalogueFile: ModelsConfig["catalogueFile"];
  if (e.MODELS_CONFIG_FILE) {
    try {
      catalogueFile = readModelsConfigFile(
        path.resolve(e.MODELS_CONFIG_FILE),
        localModels,
        localEmbeddingModels,
        localImageModels,
      );
    } catch (error) {
      if (!(error instanceof CatalogueError)) throw error;
      throw new ConfigError(error.issues.map((issue) => `MODELS_CONFIG_FILE: ${issue}`));
    }
  }
  const trim = (url: string) => url.replace(/\/+$/, "");
  return Object.freeze({
    openai: { apiKey: e.OPENAI_API_KEY, baseUrl: trim(e.OPENAI_BASE_URL), api: e.OPENAI_API },
    anthropic: { apiKey: e.ANTHROPIC_API_KEY, baseUrl: trim(e.ANTHROPIC_BASE_URL) },
    google: { apiKey: e.GOOGLE_GENERATIVE_AI_API_KEY, baseUrl: trim(e.GOOGLE_BASE_URL) },
    openaiCompatible: {
      baseUrl: e.OPENAI_COMPATIBLE_BASE_URL ? trim(e.OPENAI_COMPATIBLE_BASE_URL) : undefined,
      apiKey: e.OPENAI_COMPATIBLE_API_KEY,
      models: localModels,
      embeddingModels: localEmbeddingModels,
      imageModels: localImageModels,
    },
    catalogueFile,
    callTimeoutMs: e.MODEL_CALL_TIMEOUT_MS,
    maxAttempts: e.MODEL_MAX_ATTEMPTS,
    retryBaseDelayMs: e.MODEL_RETRY_BASE_DELAY_MS,
    retryMaxDelayMs: e.MODEL_RETRY_MAX_DELAY_MS,
    simulatorTokensPerSecond: e.SIMULATOR_TOKENS_PER_SECOND,
    localDiscovery: {
      enabled: e.LOCAL_MODEL_DISCOVERY && !e.OPENAI_COMPATIBLE_BASE_URL,
      ports: e.LOCAL_MODEL_PORTS,
      timeoutMs: e.LOCAL_MODEL_PROBE_TIMEOUT_MS,
    },
    simulatorCharges: e.SIMULATOR_CHARGES,
  });
}
