import { z } from "zod";
import { ZAgentRoleId } from "./models";

// ---------------------------------------------------------------------------------------
// Tools (decision 058, docs/decisions/058-tool-layer.md): what a lane's call may use, how risky
// each tool is, who may use it, and the wire shapes of tool calls in a run.
// ---------------------------------------------------------------------------------------

/**
 * read: looks something up; write: changes something of the user's; external: talks to a
 * system outside Cohort (web, a third-party API); costly: spends money or compute.
 */
export const TOOL_RISKS = ["read", "write", "external", "costly"] as const;
export const ZToolRisk = z.enum(TOOL_RISKS);
export type TToolRisk = z.infer<typeof ZToolRisk>;

export const TOOL_RISK_LABELS: Record<TToolRisk, string> = {
  read: "Reads",
  write: "Changes your data",
  external: "Talks to an outside system",
  costly: "Costs credits or compute",
};

/** The most characters of one tool's output a model sees; the rest is cut with a note. */
export const TOOL_OUTPUT_MAX_CHARS = 16_000;
/** The most characters of a tool's output a `tool.result` event carries for the lane. */
export const TOOL_TEXT_PREVIEW_MAX = 2_000;
/** The most characters of a tool call's arguments (as JSON) an event carries. */
export const TOOL_ARGS_MAX_CHARS = 8_000;
/** Tool names: built-ins, and MCP tools as `mcp__<serverslug>__<toolname>`. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
export const ZToolName = z
  .string()
  .regex(TOOL_NAME_PATTERN, "must be 1-64 of a-z, A-Z, 0-9, _ and -");

/** The built-in tools (each present only when its component is configured). */
export const BUILTIN_TOOLS = [
  "search_documents",
  "read_url",
  "web_search",
  "run_code",
  "generate_image",
] as const;
export type TBuiltinTool = (typeof BUILTIN_TOOLS)[number];

/** The built-ins every role may use unless the session says otherwise (the read-only ones). */
export const DEFAULT_ROLE_BUILTINS: readonly TBuiltinTool[] = [
  "search_documents",
  "read_url",
  "web_search",
];

/** Where a tool comes from, on the wire. */
export const ZToolSourceView = z.object({
  kind: z.enum(["builtin", "mcp"]),
  server_id: z.string().optional(),
  server_name: z.string().optional(),
});
export type TToolSourceView = z.infer<typeof ZToolSourceView>;

/** A citable source a tool returned (a page, a search result, a document's passage). */
export const ZToolSource = z.object({
  n: z.number().int().min(1),
  title: z.string(),
  url: z.string().nullable(),
});
export type TToolSource = z.infer<typeof ZToolSource>;

/** A file a tool produced (an image, a run_code output). */
export const ZToolFile = z.object({
  name: z.string(),
  media_type: z.string(),
  bytes: z.number().int().min(0),
  url: z.string(),
});
export type TToolFile = z.infer<typeof ZToolFile>;

// ---------------------------------------------------------------------------------------
// Who may use what: the session's tool settings (also in templates).
// ---------------------------------------------------------------------------------------

/**
 * ask_all: every call waits for a person's approval; ask_risky (default): write, external
 * and costly calls wait; never_ask: nothing waits (owner/admin only). Whatever the policy, a
 * lane that has read untrusted text asks before its write/external calls (decision 058).
 */
export const TOOL_POLICIES = ["ask_all", "ask_risky", "never_ask"] as const;
export const ZToolPolicy = z.enum(TOOL_POLICIES);
export type TToolPolicy = z.infer<typeof ZToolPolicy>;
export const DEFAULT_TOOL_POLICY: TToolPolicy = "ask_risky";

export const TOOL_POLICY_LABELS: Record<TToolPolicy, string> = {
  ask_all: "Ask before every tool call",
  ask_risky: "Ask before calls that change, spend or reach outside",
  never_ask: "Run tools without asking",
};

/** The most built-ins / MCP servers one role's setting names. */
export const ROLE_TOOLS_MAX = 50;

/** One role's tools: built-in tool names, and the ids of MCP servers whose tools it may use. */
export const ZRoleToolSettings = z.object({
  builtins: z.array(ZToolName).max(ROLE_TOOLS_MAX),
  mcp_servers: z.array(z.string().trim().min(1).max(100)).max(ROLE_TOOLS_MAX),
});
export type TRoleToolSettings = z.infer<typeof ZRoleToolSettings>;

/** A session's tool settings; a role left out gets the defaults (read-only built-ins, no MCP). */
export const ZSessionToolSettings = z.object({
  policy: ZToolPolicy.default(DEFAULT_TOOL_POLICY),
  roles: z.partialRecord(ZAgentRoleId, ZRoleToolSettings).default({}),
});
export type TSessionToolSettings = z.infer<typeof ZSessionToolSettings>;
export type TSessionToolSettingsInput = z.input<typeof ZSessionToolSettings>;

/** Built-ins a role gets by default on top of the read-only ones (the Designer draws). */
export const DEFAULT_ROLE_EXTRA_BUILTINS: Partial<
  Record<z.infer<typeof ZAgentRoleId>, readonly TBuiltinTool[]>
> = { designer: ["generate_image"] };

export function defaultRoleTools(role?: z.infer<typeof ZAgentRoleId>): TRoleToolSettings {
  const extra = role ? (DEFAULT_ROLE_EXTRA_BUILTINS[role] ?? []) : [];
  return { builtins: [...DEFAULT_ROLE_BUILTINS, ...extra], mcp_servers: [] };
}

export function defaultSessionTools(): TSessionToolSettings {
  return { policy: DEFAULT_TOOL_POLICY, roles: {} };
}

/** What one role may use under these settings (the defaults for a role left out). */
export function roleTools(
  settings: TSessionToolSettings | null | undefined,
  role: z.infer<typeof ZAgentRoleId>,
): TRoleToolSettings {
  return settings?.roles[role] ?? defaultRoleTools(role);
}

// ---------------------------------------------------------------------------------------
// The tools a user can choose from (GET /api/tools).
// ---------------------------------------------------------------------------------------

export const ZToolInfo = z.object({
  name: z.string(),
  title: z.string(),
  /** For MCP tools: the server's own text (untrusted), shown to whoever connects it. */
  description: z.string(),
  risk: ZToolRisk,
  source: ZToolSourceView,
  /** Hundredths of a credit held per call; 0 = free. */
  price: z.number().int().min(0),
  untrusted_output: z.boolean(),
});
export type TToolInfo = z.infer<typeof ZToolInfo>;

export const ZUnavailableTool = z.object({ name: z.string(), reason: z.string() });
export type TUnavailableTool = z.infer<typeof ZUnavailableTool>;

export const ZToolListQuery = z.object({
  workspace_id: z.string().trim().min(1).max(100).optional(),
  session_id: z.string().trim().min(1).max(100).optional(),
});
export type TToolListQuery = z.infer<typeof ZToolListQuery>;

export const ZToolListResponse = z.object({
  tools: z.array(ZToolInfo),
  /** Tools that could be offered but are not, and why (e.g. no search provider configured). */
  unavailable: z.array(ZUnavailableTool),
});
export type TToolListResponse = z.infer<typeof ZToolListResponse>;

// ---------------------------------------------------------------------------------------
// Tool calls in a run: the fields of the tool.* run events (the events are in runs.ts).
// ---------------------------------------------------------------------------------------

/** Ids every tool event carries: the lane's model call, its plan step, the tool call. */
export const toolEventIds = {
  /** The lane's model call (run step) that asked for the tool. */
  call_id: z.string(),
  step_id: z.string(),
  /** The lane's kind (agent, critic, revision). */
  kind: z.enum(["agent", "critic", "revision"]),
  /** This tool call's id (the model's tool call id; unique in the run). */
  tool_call_id: z.string(),
  tool: z.string(),
};

export const TOOL_CALL_STATUSES = [
  "running",
  "awaiting_approval",
  "completed",
  "failed",
  "denied",
] as const;
export const ZToolCallStatus = z.enum(TOOL_CALL_STATUSES);
export type TToolCallStatus = z.infer<typeof ZToolCallStatus>;
export const TOOL_CALL_STATUS_LABELS: Record<TToolCallStatus, string> = {
  running: "Running",
  awaiting_approval: "Waiting for approval",
  completed: "Done",
  failed: "Failed",
  denied: "Denied",
};

/** Why a call waits for approval: the session's policy, or untrusted text the lane read. */
export const ZToolApprovalReason = z.enum(["policy", "untrusted"]);
export type TToolApprovalReason = z.infer<typeof ZToolApprovalReason>;

export const ZToolApprovalDecision = z.enum(["approved", "denied", "expired"]);
export type TToolApprovalDecision = z.infer<typeof ZToolApprovalDecision>;

export const TOOL_ERROR_CODES = {
  /** The tool took longer than its time limit. */
  timeout: "tool_timeout",
  /** The tool threw or answered with an error. */
  failed: "tool_failed",
  /** The model's arguments did not match the tool's input schema. */
  invalidArgs: "tool_invalid_args",
  /** The model asked for a tool the lane may not use (or that does not exist). */
  unknownTool: "tool_unknown",
  /** Not approved (denied, expired, or approval needed where nobody can give it). */
  denied: "tool_denied",
  /** The tool's price could not be held (a credit limit). */
  notAffordable: "tool_not_affordable",
  /** The run stopped while the tool ran. */
  stopped: "tool_stopped",
} as const;

// ---------------------------------------------------------------------------------------
// Checking a session's (or template's) per-role tool choice (decision 066).
// ---------------------------------------------------------------------------------------

export const TOOL_SETTINGS_ERROR_CODES = {
  /** A role names a built-in tool Cohort does not have. */
  unknownBuiltin: "tool_settings_unknown_builtin",
  /** A role names an MCP server the caller cannot offer to this workspace's sessions. */
  unknownServer: "tool_settings_unknown_server",
} as const;

export const TOOL_SETTINGS_MESSAGES = {
  unknownBuiltin: (name: string) =>
    `"${name}" is not a built-in tool. The built-in tools are ${BUILTIN_TOOLS.join(", ")}; an MCP server's tools are chosen by server.`,
  unknownServer: (id: string) =>
    `No MCP server "${id}" with tools is connected for you or this workspace. Connect it in Settings → MCP servers (and refresh it) first.`,
} as const;
