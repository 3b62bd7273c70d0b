import type {
  TCreateMcpServer,
  TMcpServerResponse,
  TMcpServersResponse,
  TSuccessResponse,
} from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api/api";

/** MCP servers as tool sources (GET/POST /mcp-servers, POST …/refresh, DELETE …/{id}). */
export function mcpServersKey(workspaceId: string | undefined) {
  return ["mcp-servers", workspaceId ?? "mine"] as const;
}

export function useMcpServers(workspaceId: string | undefined) {
  return useQuery({
    queryKey: mcpServersKey(workspaceId),
    queryFn: ({ signal }) =>
      api.get<TMcpServersResponse>("/mcp-servers", {
        signal,
        query: workspaceId ? { workspace_id: workspaceId } : {},
      }),
    select: (data) => data.servers,
  });
}

export function addMcpServer(body: TCreateMcpServer): Promise<TMcpServerResponse> {
  return api.post<TMcpServerResponse>("/mcp-servers", body);
}

export function refreshMcpServer(id: string): Promise<TMcpServerResponse> {
  return api.post<TMcpServerResponse>(`/mcp-servers/${encodeURIComponent(id)}/refresh`);
}

export function removeMcpServer(id: string): Promise<TSuccessResponse> {
  return api.delete<TSuccessResponse>(`/mcp-servers/${encodeURIComponent(id)}`);
}
