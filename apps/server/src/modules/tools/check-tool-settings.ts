import {
  AGENT_ROLES,
  BUILTIN_TOOLS,
  TOOL_SETTINGS_ERROR_CODES,
  TOOL_SETTINGS_MESSAGES,
  type TSessionToolSettings,
} from "@cohort/contracts";
import { AppError } from "../../platform/errors";
import type { ToolRegistry } from "./tool-registry";

const BUILTINS: ReadonlySet<string> = new Set(BUILTIN_TOOLS);

/**
 * A session's or template's per-role tool choice, checked before it is stored (decision 066):
 * every built-in must be one Cohort has, and every MCP server one whose tools the registry
 * offers to this person in this workspace (their own, the workspace's, the operator's).
 * Choices already stored (`current`) pass as they are, so a server that went away since does
 * not block changing something else. 400 with the role and the name, changing nothing.
 */
export async function checkToolSettings(
  registry: ToolRegistry,
  scope: { userId: string; workspaceId: string },
  settings: TSessionToolSettings | null | undefined,
  current?: TSessionToolSettings | null,
): Promise<void> {
  if (!settings) return;
  const unknownBuiltins: { role: string; name: string }[] = [];
  const newServers: { role: string; id: string }[] = [];
  for (const role of AGENT_ROLES) {
    const chosen = settings.roles[role];
    if (!chosen) continue;
    for (const name of chosen.builtins)
      if (!BUILTINS.has(name)) unknownBuiltins.push({ role, name });
    const before = new Set(current?.roles[role]?.mcp_servers ?? []);
    for (const id of chosen.mcp_servers) if (!before.has(id)) newServers.push({ role, id });
  }
  if (unknownBuiltins.length === 0 && newServers.length === 0) return;
  // Modules may register built-ins of their own: those the registry offers count as well.
  const tools = await registry.toolsFor({ ...scope, sessionId: "" });
  const builtins = new Set(tools.flatMap((t) => (t.source.kind === "builtin" ? [t.name] : [])));
  const unknown = unknownBuiltins.find((entry) => !builtins.has(entry.name));
  if (unknown) {
    throw new AppError(
      TOOL_SETTINGS_ERROR_CODES.unknownBuiltin,
      400,
      TOOL_SETTINGS_MESSAGES.unknownBuiltin(unknown.name),
      { role: unknown.role, builtin: unknown.name },
    );
  }
  const offered = new Set(
    tools.flatMap((tool) => (tool.source.kind === "mcp" ? [tool.source.serverId] : [])),
  );
  const missing = newServers.find((entry) => !offered.has(entry.id));
  if (missing) {
    throw new AppError(
      TOOL_SETTINGS_ERROR_CODES.unknownServer,
      400,
      TOOL_SETTINGS_MESSAGES.unknownServer(missing.id),
      { role: missing.role, mcp_server: missing.id },
    );
  }
}
