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
 * A live link's run events after `after`, through the browser's EventSource (no socket for
 * viewers). The stream is closed on its `end` or on any error instead of letting the
 * browser reconnect from the first cursor; the page then re-reads the view (a 404 shows
 * the link is gone) and opens a new stream from where it is.
 */
export function openShareStream(
  token: string,
  after: number,
  handlers: ShareStreamHandlers,
): () => void {
  const source = new EventSource(
    `/api/share/${encodeURIComponent(token)}/events?after=${encodeURIComponent(after)}`,
  );
  let open = true;
  const stop = () => {
    if (!open) return;
    open = false;
    source.close();
    handlers.onStop();
  };
  source.addEventListener(SHARE_STREAM_EVENTS.run, (message) => {
    handlers.onEvent(JSON.parse((message as MessageEvent<string>).data) as TSharedRunEvent);
  });
  source.addEventListener(SHARE_STREAM_EVENTS.end, stop);
  source.addEventListener("error", stop);
  return () => {
    open = false;
    source.close();
  };
}
