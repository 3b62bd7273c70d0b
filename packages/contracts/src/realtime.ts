import { z } from "zod";
import { ZWorkspaceRole } from "./workspaces";

/** socket.io event names (the API). Run events are added by orchestration. */
export const SOCKET_PATH = "/socket.io";
export const CLIENT_EVENTS = {
  joinSession: "join-session",
  leaveSession: "leave-session",
} as const;
export const SERVER_EVENTS = {
  ready: "ready",
  /** To the user's own sockets after every change of their balance or holds (billing.ts). */
  creditsChanged: "credits.changed",
  /**
   * Every run event (runs.ts, TRunEvent: its `type` says which) to the session's room
   * `chat:<sessionId>`. One channel keeps them in seq order and apart from the user-room
   * `credits.changed` above.
   */
  runEvent: "run-event",
  /**
   * To the user's own sockets when their place in a workspace changes (decision 040): `role`
   * null means they were removed (or left) and their sockets already left its rooms.
   */
  workspaceChanged: "workspace.changed",
} as const;

/** Sent by the server once a connection's handshake has passed. */
export const ZSocketReady = z.object({
  socketId: z.string(),
  serverTime: z.string(),
  transport: z.string(),
});
export type TSocketReady = z.infer<typeof ZSocketReady>;

/** `workspace.changed`: the member's new role in the workspace, null once they are out of it. */
export const ZWorkspaceChanged = z.object({
  workspace_id: z.uuid(),
  role: ZWorkspaceRole.nullable(),
});
export type TWorkspaceChanged = z.infer<typeof ZWorkspaceChanged>;
