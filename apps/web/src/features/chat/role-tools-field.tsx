import {
  AGENT_ROLE_NAMES,
  AGENT_ROLES,
  roleTools,
  type TAgentRole,
  type TRoleToolSettings,
  type TSessionToolSettings,
  type TToolInfo,
  type TToolListResponse,
  type TUnavailableTool,
} from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useId } from "react";
import { api } from "../../lib/api/api";

/** The tools a workspace's sessions can give their roles (GET /api/tools). */
export function useToolChoices(workspaceId: string | undefined) {
  return useQuery({
    queryKey: ["tools", workspaceId ?? "mine"] as const,
    queryFn: ({ signal }) =>
      api.get<TToolListResponse>("/tools", {
        signal,
        query: workspaceId ? { workspace_id: workspaceId } : {},
      }),
  });
}

export type RoleToolChoices = TSessionToolSettings["roles"];

interface ServerChoice {
  id: string;
  name: string;
  tools: TToolInfo[];
}

function serversOf(tools: readonly TToolInfo[]): ServerChoice[] {
  const byId = new Map<string, ServerChoice>();
  for (const tool of tools) {
    const id = tool.source.server_id;
    if (tool.source.kind !== "mcp" || !id) continue;
    const server = byId.get(id) ?? { id, name: tool.source.server_name ?? id, tools: [] };
    server.tools.push(tool);
    byId.set(id, server);
  }
  return [...byId.values()];
}

function toggled(list: readonly string[], item: string, on: boolean): string[] {
  return on ? [...list.filter((x) => x !== item), item] : list.filter((x) => x !== item);
}

/** "Defaults" when no role differs from its defaults; else how many roles were changed. */
function summaryOf(value: RoleToolChoices): string {
  const changed = AGENT_ROLES.filter((role) => value[role] !== undefined).length;
  return changed === 0
    ? "Defaults: read-only built-ins for every role, no MCP server"
    : `Chosen for ${changed} role${changed === 1 ? "" : "s"}`;
}

function unavailableText(item: TUnavailableTool): string {
  // Providers often name the tool in their reason already.
  return item.reason.startsWith(`${item.name}:`) ? item.reason : `${item.name}: ${item.reason}`;
}

/**
 * Which tools each role may use (decision 066): the built-ins this installation has and the
 * connected MCP servers, per role. A role left alone keeps the defaults (the read-only
 * built-ins, no MCP server); ticking anything stores that role's whole choice. Native
 * checkboxes in one fieldset per role, inside a disclosure, so the keyboard does it all.
 */
export function RoleToolsField({
  value,
  onChange,
  workspaceId,
  roles = AGENT_ROLES,
}: {
  value: RoleToolChoices;
  onChange(value: RoleToolChoices): void;
  workspaceId: string | undefined;
  roles?: readonly TAgentRole[];
}) {
  const id = useId();
  const query = useToolChoices(workspaceId);
  const tools = query.data?.tools ?? [];
  const builtins = tools.filter((tool) => tool.source.kind === "builtin");
  const servers = serversOf(tools);
  const unavailable = query.data?.unavailable ?? [];
  const update = (role: TAgentRole, next: TRoleToolSettings) =>
    onChange({ ...value, [role]: next });
  return (
    <details className="rounded-2xl border border-ink-200 bg-white" data-testid="role-tools">
      <summary className="cursor-pointer rounded-2xl px-3 py-2.5 text-sm font-medium text-ink-800 focus-visible:outline-2 focus-visible:outline-brand-600">
        Tools each role may use{" "}
        <span className="font-normal text-ink-500" data-testid="role-tools-summary">
          — {summaryOf(value)}
        </span>
      </summary>
      <div className="grid gap-3 border-t border-ink-100 px-3 py-3">
        <p id={`${id}-hint`} className="text-xs text-ink-500">
          Built-in lookups are on for every role unless you change it. A connected MCP server's
          tools are off until you choose the server for a role; connect servers in Settings → MCP
          servers.
        </p>
        {query.isPending ? (
          <p className="text-xs text-ink-500">Loading the tools…</p>
        ) : query.isError ? (
          <p className="text-xs text-red-700" role="alert">
            The list of tools could not be loaded. Each role keeps its current choice.
          </p>
        ) : (
          <div className="grid gap-2 sm:grid-cols-2">
            {roles.map((role) => {
              const chosen = roleTools({ policy: "ask_risky", roles: value }, role);
              return (
                <fieldset
                  key={role}
                  className="rounded-xl border border-ink-200 p-2.5"
                  aria-describedby={`${id}-hint`}
                  data-testid={`role-tools-${role}`}
                >
                  <legend className="px-1 text-sm font-semibold text-ink-950">
                    {AGENT_ROLE_NAMES[role]}
                  </legend>
                  <ul className="grid gap-1">
                    {builtins.map((tool) => (
                      <ToolChoice
                        key={tool.name}
                        checked={chosen.builtins.includes(tool.name)}
                        onChange={(checked) =>
                          update(role, {
                            ...chosen,
                            builtins: toggled(chosen.builtins, tool.name, checked),
                          })
                        }
                      >
                        {tool.title} <span className="font-mono text-ink-500">{tool.name}</span>
                      </ToolChoice>
                    ))}
                    {servers.map((server) => (
                      <ToolChoice
                        key={server.id}
                        checked={chosen.mcp_servers.includes(server.id)}
                        onChange={(checked) =>
                          update(role, {
                            ...chosen,
                            mcp_servers: toggled(chosen.mcp_servers, server.id, checked),
                          })
                        }
                      >
                        MCP server {server.name}{" "}
                        <span className="text-ink-500">
                          ({server.tools.length} tool{server.tools.length === 1 ? "" : "s"})
                        </span>
                      </ToolChoice>
                    ))}
                  </ul>
                </fieldset>
              );
            })}
          </div>
        )}
        {servers.length === 0 && !query.isPending && !query.isError ? (
          <p className="text-xs text-ink-500">No MCP server with tools is connected.</p>
        ) : null}
        {unavailable.length > 0 ? (
          <div className="text-xs text-ink-500">
            <p>Not available here:</p>
            <ul className="list-disc pl-5" aria-label="Tools not available">
              {unavailable.map((item) => (
                <li key={item.name}>{unavailableText(item)}</li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </details>
  );
}

/** One role's box for a built-in tool or an MCP server. */
function ToolChoice({
  checked,
  onChange,
  children,
}: {
  checked: boolean;
  onChange(checked: boolean): void;
  children: ReactNode;
}) {
  return (
    <li>
      <label className="flex items-start gap-2 text-xs text-ink-800">
        <input
          type="checkbox"
          className="mt-0.5 size-4 accent-brand-600"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span>{children}</span>
      </label>
    </li>
  );
}
