import { useCallback } from "react";
import { modelsById, useModels } from "../chat/chat-api";

/**
 * A model's name for a person when the catalogue no longer lists it (removed, or a local
 * server that is gone): "claude-sonnet-4" → "Claude sonnet 4", "local:llama3" → "llama3
 * (local)". Never the bare id where the catalogue has a name.
 */
export function fallbackModelName(id: string): string {
  if (id.startsWith("local:")) return `${id.slice("local:".length)} (local)`;
  const words = id.replaceAll(/[-_]+/g, " ").trim();
  return words ? `${words.charAt(0).toUpperCase()}${words.slice(1)}` : id;
}

/**
 * Model ids to their display names, from the catalogue (`GET /api/ai/models`, fetched once
 * and shared with the chat). Decision 032: credit history, usage charts and the admin
 * tables show names, never ids.
 */
export function useModelNames(): (id: string) => string {
  const { data } = useModels();
  return useCallback(
    (id: string) => modelsById(data).get(id)?.name ?? fallbackModelName(id),
    [data],
  );
}
