/**
 * Every socket.io room name, in one place (docs/conventions.md): modules that join sockets to a
 * room and modules that emit to it agree on its name here, not by importing each other.
 */

/** Every socket of one user: credit changes and anything else meant for the person. */
export const userRoom = (userId: string) => `user:${userId}`;

/**
 * Every socket opened with one sign-in, so revoking it can disconnect them all at once. The
 * string keeps its old `session:` prefix so old and new instances agree during a rolling
 * deploy (decision 023).
 */
export const signInRoom = (signInId: string) => `session:${signInId}`;

/** Every socket watching one chat session: its runs' events. */
export const chatRoom = (chatSessionId: string) => `chat:${chatSessionId}`;

/**
 * Every socket of one member that watches something in one workspace (joined beside the
 * chat room), so removing the member or lowering their role reaches their open sockets on
 * every instance at once.
 */
export const workspaceMemberRoom = (workspaceId: string, userId: string) =>
  `workspace:${workspaceId}:user:${userId}`;

/**
 * No socket joins it: a share link's live streams listen to it on the server (decision 051),
 * so a revocation on any instance ends them at once.
 */
export const shareRoom = (shareId: string) => `share:${shareId}`;
