import {
  MCP_DESCRIPTION_MAX,
  MCP_TOOL_NAME_MAX,
  MCP_TOOLS_PER_SERVER_MAX,
  mcpToolName,
  type TMcpToolInfo,
} from "@cohort/contracts";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";

/** A server's tool as Cohort keeps it: names checked, texts capped, schema bounded. */
export interface StoredTool extends TMcpToolInfo {
  input_schema: Record<string, unknown>;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]+$/;
const SCHEMA_MAX_CHARS = 16_000;
const TITLE_MAX = 100;

/** Control characters (but newlines and tabs) never reach a person's screen or a prompt. */
function clean(text: string, max: number): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const plain = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, "");
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}

/**
 * The risk class from the server's annotations (decision 060): "read" only when it says
 * readOnlyHint, "write" when it says destructive or not read-only, else "external". They
 * are hints from an untrusted party: a lane that read MCP output still asks before writing.
 */
export function riskOf(tool: Tool): TMcpToolInfo["risk"] {
  const a = tool.annotations;
  if (a?.readOnlyHint === true && a.destructiveHint !== true) return "read";
  if (a?.destructiveHint === true || a?.readOnlyHint === false) return "write";
  return "external";
}

/** The tools a run may be offered; names that do not fit Cohort's tool names are left out. */
export function storedTools(slug: string, tools: readonly Tool[]): StoredTool[] {
  const kept: StoredTool[] = [];
  for (const tool of tools.slice(0, MCP_TOOLS_PER_SERVER_MAX)) {
    const qualified = mcpToolName(slug, tool.name);
    if (!TOOL_NAME.test(tool.name) || qualified.length > MCP_TOOL_NAME_MAX) continue;
    const schema = tool.inputSchema as Record<string, unknown>;
    if (JSON.stringify(schema).length > SCHEMA_MAX_CHARS) continue;
    kept.push({
      name: tool.name,
      qualified_name: qualified,
      title: clean(tool.title ?? tool.annotations?.title ?? tool.name, TITLE_MAX),
      description: clean(tool.description ?? "", MCP_DESCRIPTION_MAX),
      risk: riskOf(tool),
      input_schema: schema,
    });
  }
  return kept;
}

export function toolInfo(tool: StoredTool): TMcpToolInfo {
  const { input_schema: _schema, ...info } = tool;
  return info;
}
