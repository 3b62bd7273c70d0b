import {
  SHARE_STREAM_EVENTS,
  type TCreateShare,
  type TShareCreated,
  type TSharedRunEvent,
  type TSharedView,
  type TShareLink,
  type TShareList,
  type TWorkspaceShareList,
} from "@cohort/contracts";
import { api } from "../../lib/api/api";
import { readEvents } from "../../lib/api/read-events";

/** The Share dialog's calls (members) and the public page's (anyone with the link). */
export function createShare(sessionId: string, body: TCreateShare): Promise<TShareCreated> {
  return api.post<TShareCreated>(`/sessions/${encodeURIComponent(sessionId)}/shares`, body);
}

export function listShares(sessionId: string, signal?: AbortSignal): Promise<TShareList> {
  return api.get<TShareList>(`/sessions/${encodeURIComponent(sessionId)}/shares`, { signal });
}

/** Every link of the workspace's sessions (owners and admins; decision 051). */
export function listWorkspaceShares(
  workspaceId: string,
  signal?: AbortSignal,
): Promise<TWorkspaceShareList> {
  return api.get<TWorkspaceShareList>(`/workspaces/${encodeURIComponent(workspaceId)}/shares`, {
    signal,
  });
}

export function revokeShare(shareId: string): Promise<{ share: TShareLink }> {
  return api.delete<{ share: TShareLink }>(`/shares/${encodeURIComponent(shareId)}`);
}

export function getSharedView(token: string, signal?: AbortSignal): Promise<TSharedView> {
  // A viewer is usually signed out: a 401 here is nobody's lost sign-in.
  return api.get<TSharedView>(`/share/${encodeURIComponent(token)}`, {
    signal,
    redirectOnUnauthorized: false,
  });
}

export interface ShareStreamHandlers {
  onEvent(event: TSharedRunEvent): void;
  /** The link stopped working, or the connection broke: the page asks again. */
  onStop(): void;
}

/**
 * How long one stream of a live link is read before it is opened afresh: the API client times
 * out every call, and a viewer may keep a page open for hours. The page re-reads the view and
 * goes on from its cursor, so nothing is missed.
 */
const SHARE_STREAM_MS = 10 * 60_000;

/**
 * A live link's run events after `after` (no socket for viewers), read with the API client's
 * stream and the web's one reader of Server-Sent Events (decision 074). On the stream's `end`,
 * its close or any error the page is told to stop; it then re-reads the view (a 404 shows the
 * link is gone) and opens a new stream from where it is.
 */
export function openShareStream(
  token: string,
  after: number,
  handlers: ShareStreamHandlers,
): () => void {
  const abort = new AbortController();
  let open = true;
  const stop = () => {
    if (!open) return;
    open = false;
    abort.abort();
    handlers.onStop();
  };
  const read = async () => {
    const stream = await api.stream("GET", `/share/${encodeURIComponent(token)}/events`, {
      query: { after },
      signal: abort.signal,
      timeoutMs: SHARE_STREAM_MS,
      // A viewer is usually signed out: a 401 here is nobody's lost sign-in.
      redirectOnUnauthorized: false,
    });
    for await (const { event, data } of readEvents(stream.chunks())) {
      if (!open || event === SHARE_STREAM_EVENTS.end) return;
      if (event === SHARE_STREAM_EVENTS.run) handlers.onEvent(JSON.parse(data) as TSharedRunEvent);
    }
  };
  read().then(stop, stop);
  return () => {
    open = false;
    abort.abort();
  };
}
