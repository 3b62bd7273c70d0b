import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolDefinition, ToolOutput, ToolProvider } from "../tools/tool-definition";
import { findServerRow, listServerRows } from "./manage-servers";
import { callMcpTool, type McpTarget } from "./mcp-connection";
import type { McpServersDeps } from "./mcp-servers-deps";
import type { OperatorServers } from "./operator-status";
import { failureText } from "./refresh-server";
import { type McpServerRow, rowTools } from "./server-row";
import { operatorTarget, rowTarget } from "./server-target";
import type { StoredTool } from "./stored-tools";

/** What one MCP answer becomes for the model: its text parts, other parts named, never run. */
export function answerText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const item of result.content ?? []) {
    if (item.type === "text") parts.push(item.text);
    else if (item.type === "image" || item.type === "audio") {
      parts.push(
        `[${item.type}: ${item.mimeType}, ${Math.round((item.data.length * 3) / 4)} bytes]`,
      );
    } else if (item.type === "resource") {
      const resource = item.resource as { uri: string; text?: string };
      parts.push(resource.text ?? `[resource: ${resource.uri}]`);
    } else if (item.type === "resource_link") parts.push(`[resource: ${item.uri}]`);
  }
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push(JSON.stringify(result.structuredContent));
  }
  return parts.join("\n");
}

interface ToolSourceServer {
  id: string;
  name: string;
  slug: string;
  tools: StoredTool[];
  /** Resolved at call time: a stored server's token may have changed since the run began. */
  target(): Promise<McpTarget | null>;
}

function definition(
  deps: McpServersDeps,
  server: ToolSourceServer,
  tool: StoredTool,
): ToolDefinition<Record<string, unknown>> {
  return {
    name: tool.qualified_name,
    title: `${tool.title} (${server.name})`,
    description: tool.description,
    input: { kind: "json", schema: tool.input_schema },
    risk: tool.risk,
    source: { kind: "mcp", serverId: server.id, serverName: server.name },
    price: 0,
    untrustedOutput: true,
    // The call's own limit plus connecting: the registry's timer never beats ours.
    timeoutMs: deps.limits.callTimeoutMs + deps.limits.connectTimeoutMs + 5_000,
    async execute(input, ctx): Promise<ToolOutput> {
      const target = await server.target();
      if (!target) return { text: `MCP server "${server.name}" was removed.`, isError: true };
      try {
        const result = await callMcpTool(target, deps.limits, tool.name, input ?? {}, ctx.signal);
        const text = answerText(result);
        return { text: text || "(no output)", isError: result.isError === true };
      } catch (error) {
        const text = failureText(server.name, error, deps.limits);
        ctx.log.warn({ server: server.id, tool: tool.name, reason: text }, "mcp tool call failed");
        return { text, isError: true };
      }
    },
  };
}

function storedServer(deps: McpServersDeps, row: McpServerRow): ToolSourceServer {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    tools: rowTools(row),
    target: async () => {
      const fresh = await findServerRow(deps, row.id);
      return fresh ? rowTarget(deps, fresh).target : null;
    },
  };
}

/**
 * The "mcp" tool provider: the operator's servers, the caller's own and their workspace's,
 * each tool under `mcp__<slug>__<tool>`. Which of them a lane may use is the session's
 * choice (tool settings), made by the registry.
 */
export function mcpToolProvider(deps: McpServersDeps, operator: OperatorServers): ToolProvider {
  return {
    id: "mcp",
    async tools(scope) {
      const workspaces = [scope.userId];
      if (scope.workspaceId && scope.workspaceId !== scope.userId)
        workspaces.push(scope.workspaceId);
      const servers: ToolSourceServer[] = [];
      for (const server of await operator.connected()) {
        servers.push({
          id: server.config.id,
          name: server.config.name,
          slug: server.config.slug,
          tools: server.status.tools,
          target: async () => operatorTarget(deps, server.config),
        });
      }
      const taken = new Set(servers.map((s) => s.slug));
      for (const row of await listServerRows(deps, workspaces)) {
        // A personal and a team server may share a slug: the first keeps the names.
        if (taken.has(row.slug)) continue;
        taken.add(row.slug);
        servers.push(storedServer(deps, row));
      }
      return servers.flatMap((server) =>
        server.tools.map((tool) => definition(deps, server, tool)),
      );
    },
    unavailable() {
      return operator.failing().map((server) => ({
        name: `mcp__${server.config.slug}__*`,
        reason: server.status.lastError ?? "not reachable",
      }));
    },
  };
}
