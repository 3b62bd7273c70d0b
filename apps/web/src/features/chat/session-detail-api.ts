import type { TSessionDetailResponse } from "@cohort/contracts";
import { api } from "../../lib/api/api";
import { prefetchOnce } from "../../lib/api/boot-prefetch";

/**
 * How many runs the conversation opens with in full, and reads per "Load earlier runs"
 * (decision 077): the older ones come as outlines.
 */
export const RUNS_PAGE = 10;

/** The session with every run in full; with `runs`, only the newest that many (decision 077). */
export function getSessionDetail(
  id: string,
  signal?: AbortSignal,
  runs?: number,
  redirectOnUnauthorized = true,
): Promise<TSessionDetailResponse> {
  return api.get<TSessionDetailResponse>(`/sessions/${encodeURIComponent(id)}`, {
    signal,
    redirectOnUnauthorized,
    ...(runs === undefined ? {} : { query: { runs } }),
  });
}

/** The boot's slot for a session's opening read (decision 080). */
export function sessionOpenPrefetchKey(id: string): string {
  return `session-open:${id}`;
}

/**
 * Asks for what the conversation opens with (the newest RUNS_PAGE runs in full) while the
 * page is still booting (decision 080), once `allowed` says the user is signed in and needs
 * not accept the agreement first: a signed-out or gated page never downloads session content.
 */
export function prefetchSessionOpen(id: string, allowed: Promise<boolean>): void {
  prefetchOnce(sessionOpenPrefetchKey(id), async () => {
    if (!(await allowed)) throw new Error("Not asked: signed out, or the agreement comes first");
    return getSessionDetail(id, undefined, RUNS_PAGE, false);
  });
}
