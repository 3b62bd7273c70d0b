import {
  roleTools,
  type TAgentRole,
  TOOL_NAME_PATTERN,
  type TSessionToolSettings,
  type TToolInfo,
  type TUnavailableTool,
} from "@cohort/contracts";
import type { ToolDefinition, ToolProvider, ToolScope } from "./tool-definition";
import { defaultToolGate, type ToolGate } from "./tool-gate";

interface RegistryLog {
  warn(o: object, m: string): void;
}

/**
 * The one registry of tools (decision 058): modules add their providers at registration
 * (`app.tools.addProvider`), the approvals module sets its gate (`app.tools.setGate`), and
 * the engine asks it at run start for what a run, and each of its roles, may use.
 */
export class ToolRegistry {
  private readonly providers: ToolProvider[] = [];
  private currentGate: ToolGate = defaultToolGate;

  constructor(private readonly log: RegistryLog) {}

  addProvider(provider: ToolProvider): void {
    if (this.providers.some((p) => p.id === provider.id)) {
      throw new Error(`A tool provider "${provider.id}" is registered already`);
    }
    this.providers.push(provider);
  }

  /** The approvals module's gate; until one is set, the default gate (decision 058). */
  setGate(gate: ToolGate): void {
    this.currentGate = gate;
  }

  get gate(): ToolGate {
    return this.currentGate;
  }

  /**
   * Every tool the providers offer for this scope, each name once (the first provider's
   * wins; a clash and a bad name are logged and left out). A provider that fails is logged
   * and its tools are absent: a run never fails because one tool source did.
   */
  async toolsFor(scope: ToolScope): Promise<ToolDefinition[]> {
    const lists = await Promise.all(
      this.providers.map(async (provider) => {
        try {
          return await provider.tools(scope);
        } catch (error) {
          this.log.warn(
            { err: error, provider: provider.id },
            "tool provider failed; its tools are absent",
          );
          return [];
        }
      }),
    );
    const byName = new Map<string, ToolDefinition>();
    for (const tool of lists.flat()) {
      if (!TOOL_NAME_PATTERN.test(tool.name)) {
        this.log.warn({ tool: tool.name }, "tool name is not allowed; left out");
      } else if (byName.has(tool.name)) {
        this.log.warn({ tool: tool.name }, "two tools with one name; the first is kept");
      } else {
        byName.set(tool.name, tool);
      }
    }
    return [...byName.values()];
  }

  /** Tools that could be offered but are not, and why (shown in the UI). */
  unavailable(): TUnavailableTool[] {
    return this.providers.flatMap((provider) => provider.unavailable?.() ?? []);
  }
}

/** The tools a role may use under the session's settings: built-ins by name, MCP by server. */
export function toolsForRole(
  tools: readonly ToolDefinition[],
  settings: TSessionToolSettings | null | undefined,
  role: TAgentRole,
): ToolDefinition[] {
  const allowed = roleTools(settings, role);
  return tools.filter((tool) =>
    tool.source.kind === "builtin"
      ? allowed.builtins.includes(tool.name)
      : allowed.mcp_servers.includes(tool.source.serverId),
  );
}

/** A tool as the list endpoint shows it. */
export function toolInfo(tool: ToolDefinition): TToolInfo {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    risk: tool.risk,
    source:
      tool.source.kind === "builtin"
        ? { kind: "builtin" }
        : { kind: "mcp", server_id: tool.source.serverId, server_name: tool.source.serverName },
    price: tool.price,
    untrusted_output: tool.untrustedOutput,
  };
}
