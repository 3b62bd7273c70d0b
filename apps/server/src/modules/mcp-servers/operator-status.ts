import type { McpServersDeps } from "./mcp-servers-deps";
import type { OperatorMcpServer } from "./operator-servers";
import { probeServer, type ServerStatus } from "./refresh-server";
import { operatorTarget } from "./server-target";

export interface OperatorServerStatus {
  config: OperatorMcpServer;
  status: ServerStatus;
  checkedAt: Date | null;
}

/**
 * The operator's servers and what each last answered, kept per instance (they have no row):
 * asked for their tools on first use and on a refresh.
 */
export interface OperatorServers {
  all(): Promise<OperatorServerStatus[]>;
  connected(): Promise<OperatorServerStatus[]>;
  failing(): OperatorServerStatus[];
  refresh(id: string): Promise<OperatorServerStatus | null>;
}

export function createOperatorServers(deps: McpServersDeps): OperatorServers {
  const known = new Map<string, OperatorServerStatus>(
    deps.operator.map((config) => [
      config.id,
      { config, status: { state: "unknown", lastError: null, tools: [] }, checkedAt: null },
    ]),
  );
  const pending = new Map<string, Promise<OperatorServerStatus>>();

  function probe(entry: OperatorServerStatus): Promise<OperatorServerStatus> {
    const running = pending.get(entry.config.id);
    if (running) return running;
    const next = probeServer(
      deps,
      entry.config.name,
      entry.config.slug,
      operatorTarget(deps, entry.config),
    )
      .then((status) => {
        const updated = {
          config: entry.config,
          // Down: the last tool list stays offered; a call then reports the server unreachable.
          status: status.state === "error" ? { ...status, tools: entry.status.tools } : status,
          checkedAt: new Date(),
        };
        known.set(entry.config.id, updated);
        return updated;
      })
      .finally(() => pending.delete(entry.config.id));
    pending.set(entry.config.id, next);
    return next;
  }

  async function all(): Promise<OperatorServerStatus[]> {
    return Promise.all(
      [...known.values()].map((entry) => (entry.checkedAt ? entry : probe(entry))),
    );
  }

  return {
    all,
    connected: async () => (await all()).filter((entry) => entry.status.tools.length > 0),
    failing: () => [...known.values()].filter((entry) => entry.status.state === "error"),
    refresh: async (id) => {
      const entry = known.get(id);
      return entry ? probe(entry) : null;
    },
  };
}
