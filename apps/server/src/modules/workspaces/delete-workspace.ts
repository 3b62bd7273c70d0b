import { WORKSPACE_ERROR_CODES, WORKSPACE_MESSAGES } from "@cohort/contracts";
import type { Db } from "../../db/client";
import { AppError } from "../../platform/errors";
import type { Realtime } from "../../platform/realtime";
import { dropMemberSockets, notifyWorkspaceChanged } from "./drop-member-sockets";
import { workspaceNotFound } from "./workspace-access";

/**
 * What a cascade cannot do when a team goes: stop its sessions' runs, give back its open
 * holds, delete its documents' files. The app composes it from the modules that own those
 * (orchestration, credits, documents), which this module cannot import without a loop.
 */
export type BeforeWorkspaceDeleted = (workspaceId: string, sessionIds: string[]) => Promise<void>;

/**
 * Deletes a team workspace with everything in it: sessions, documents, memories, templates,
 * invitations, the audit log and the credit pool cascade from the row; the ledger's lines
 * stay, naming an account that no longer exists. The caller checked the owner role and that
 * it is a team. Every former member's sockets leave its rooms and hear `workspace.changed`.
 */
export async function deleteWorkspace(
  db: Db,
  realtime: Realtime,
  beforeDeleted: BeforeWorkspaceDeleted,
  workspaceId: string,
  confirmName: string,
): Promise<void> {
  const { rows } = await db.query<{ name: string }>("SELECT name FROM workspaces WHERE id = $1", [
    workspaceId,
  ]);
  const workspace = rows[0];
  if (!workspace) throw workspaceNotFound();
  if (confirmName.trim() !== workspace.name) {
    throw new AppError(
      WORKSPACE_ERROR_CODES.confirmMismatch,
      400,
      WORKSPACE_MESSAGES.confirmMismatch,
    );
  }
  const [members, sessions] = await Promise.all([
    db.query<{ user_id: string }>("SELECT user_id FROM workspace_members WHERE workspace_id = $1", [
      workspaceId,
    ]),
    db.query<{ id: string }>("SELECT id FROM sessions WHERE workspace_id = $1", [workspaceId]),
  ]);
  await beforeDeleted(
    workspaceId,
    sessions.rows.map((row) => row.id),
  );
  // Sockets leave while the sessions still name the workspace (how their rooms are found).
  for (const member of members.rows) {
    await dropMemberSockets(db, realtime, workspaceId, member.user_id);
  }
  await db.query("DELETE FROM workspaces WHERE id = $1", [workspaceId]);
  for (const member of members.rows) {
    notifyWorkspaceChanged(realtime, member.user_id, workspaceId, null);
  }
}
