import { SERVER_EVENTS, type TWorkspaceChanged, type TWorkspaceRole } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { isUuid } from "../../db/uuid";
import type { Realtime } from "../../platform/realtime";
import { userRoom, workspaceMemberRoom } from "../../platform/realtime-rooms";

const CHAT_PREFIX = "chat:";

/**
 * Takes a removed member's open sockets out of the workspace, on every instance (the adapter
 * carries `fetchSockets` and `leave`): each leaves the chat rooms of the workspace's sessions
 * and the member room, and keeps every other room (their personal sessions, other teams).
 * The user room is searched too, so a socket that joined a session without the member room
 * (an older instance during a deploy) is reached as well.
 *
 * Which chat rooms belong to the workspace is read from `sessions` here (one indexed query
 * over the rooms the sockets are in): asking the sessions module would make it import this
 * one, which already imports it through the access check.
 */
export async function dropMemberSockets(
  db: Queryable,
  realtime: Realtime,
  workspaceId: string,
  userId: string,
): Promise<void> {
  const memberRoom = workspaceMemberRoom(workspaceId, userId);
  const sockets = await realtime.io.in([memberRoom, userRoom(userId)]).fetchSockets();
  const watched = new Set<string>();
  for (const socket of sockets) {
    for (const room of socket.rooms) {
      const id = room.startsWith(CHAT_PREFIX) ? room.slice(CHAT_PREFIX.length) : "";
      if (isUuid(id)) watched.add(id);
    }
  }
  const inWorkspace = new Set<string>();
  if (watched.size > 0) {
    const { rows } = await db.query<{ id: string }>(
      "SELECT id FROM sessions WHERE workspace_id = $1 AND id = ANY($2::uuid[])",
      [workspaceId, [...watched]],
    );
    for (const row of rows) inWorkspace.add(`${CHAT_PREFIX}${row.id}`);
  }
  for (const socket of sockets) {
    const leaving = [...socket.rooms].filter((room) => inWorkspace.has(room));
    for (const room of [...leaving, memberRoom]) await socket.leave(room);
  }
}

/** Tells the user's sockets their place in the workspace changed (null: they are out of it). */
export function notifyWorkspaceChanged(
  realtime: Realtime,
  userId: string,
  workspaceId: string,
  role: TWorkspaceRole | null,
): void {
  const event: TWorkspaceChanged = { workspace_id: workspaceId, role };
  realtime.io.to(userRoom(userId)).emit(SERVER_EVENTS.workspaceChanged, event);
}

/** A member is out of the workspace: their sockets leave it, then they are told. */
export async function dropMember(
  db: Queryable,
  realtime: Realtime,
  workspaceId: string,
  userId: string,
): Promise<void> {
  await dropMemberSockets(db, realtime, workspaceId, userId);
  notifyWorkspaceChanged(realtime, userId, workspaceId, null);
}
