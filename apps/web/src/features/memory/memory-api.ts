import {
  MEMORY_EVENTS,
  MEMORY_ROUTES,
  type TApproveMemory,
  type TMemory,
  type TMemoryList,
  type TMemoryProposedEvent,
  type TMemorySettings,
  type TRunMemoryProposals,
  type TUpdateMemory,
  type TUpdateMemorySettings,
  ZMemoryProposedEvent,
} from "@cohort/contracts";
import { type QueryClient, useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { api } from "../../lib/api/api";
import { realtime } from "../../lib/realtime/realtime-client";
import { workspaceScope } from "../workspaces/workspace-store";

/** Memory's calls (GET/PUT/PATCH/DELETE /api/memory…); the client adds the /api prefix. */
const path = (route: string) => route.replace(/^\/api/, "");

export const memoryKeys = {
  all: ["memory"] as const,
  list: (q: string, status: "approved" | "proposed") => ["memory", "list", status, q] as const,
  settings: ["memory", "settings"] as const,
  run: (runId: string) => ["memory", "run", runId] as const,
};

/** Same-origin download of every memory (the server sends it as an attachment). */
export const MEMORY_EXPORT_URL = MEMORY_ROUTES.export;

export function useMemories(q: string, status: "approved" | "proposed" = "approved") {
  return useQuery({
    queryKey: memoryKeys.list(q, status),
    queryFn: ({ signal }) =>
      api.get<TMemoryList>(path(MEMORY_ROUTES.list), {
        query: { status, q: q || undefined, ...workspaceScope() },
        signal,
      }),
    select: (data) => data.memories,
    placeholderData: (previous) => previous,
  });
}

export function useMemorySettings() {
  return useQuery({
    queryKey: memoryKeys.settings,
    queryFn: ({ signal }) => api.get<TMemorySettings>(path(MEMORY_ROUTES.settings), { signal }),
  });
}

export function useRunProposals(runId: string, enabled: boolean) {
  return useQuery({
    queryKey: memoryKeys.run(runId),
    queryFn: ({ signal }) =>
      api.get<TRunMemoryProposals>(path(MEMORY_ROUTES.runProposals(runId)), { signal }),
    select: (data) => data.memories,
    enabled,
  });
}

export function saveMemorySettings(change: TUpdateMemorySettings): Promise<TMemorySettings> {
  return api.put<TMemorySettings>(path(MEMORY_ROUTES.settings), change);
}

export async function approveMemory(id: string, body: TApproveMemory = {}): Promise<TMemory> {
  return (await api.post<{ memory: TMemory }>(path(MEMORY_ROUTES.approve(id)), body)).memory;
}

export async function rejectMemory(id: string): Promise<TMemory> {
  return (await api.post<{ memory: TMemory }>(path(MEMORY_ROUTES.reject(id)), {})).memory;
}

export async function editMemory(id: string, body: TUpdateMemory): Promise<TMemory> {
  return (await api.patch<{ memory: TMemory }>(path(MEMORY_ROUTES.one(id)), body)).memory;
}

export async function deleteMemory(id: string): Promise<void> {
  await api.delete(path(MEMORY_ROUTES.one(id)));
}

export async function deleteAllMemories(): Promise<number> {
  return (await api.delete<{ deleted: number }>(path(MEMORY_ROUTES.list))).deleted;
}

/** After any change: every memory list and run's proposals are read again. */
export function refreshMemories(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: memoryKeys.all });
}

/** Calls `handler` for every run's proposals as the server stores them (the user's own room). */
export function useMemoryProposed(handler: (event: TMemoryProposedEvent) => void): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    const release = realtime.acquire();
    // Checked all the same: the payload crosses the network.
    const off = realtime.on(MEMORY_EVENTS.proposed, (payload) => {
      const parsed = ZMemoryProposedEvent.safeParse(payload);
      if (parsed.success) latest.current(parsed.data);
    });
    return () => {
      off();
      release();
    };
  }, []);
}
