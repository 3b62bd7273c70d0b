import { ERROR_CODES, type TWorkspaceRole } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { isUuid } from "../../db/uuid";
import { AppError } from "../../platform/errors";
import { requireRole } from "../workspaces/workspace-access";
import {
  isoFromJson,
  type OwnedSession,
  SESSION_COLUMNS,
  type SessionRow,
  toOwnedSession,
} from "./session-row";

export function sessionNotFound(): AppError {
  return new AppError(ERROR_CODES.notFound, 404, "This session does not exist.");
}

/** A session with the caller's role in its workspace. */
export interface SessionAccess extends OwnedSession {
  role: TWorkspaceRole;
}

export interface FindSessionOptions {
  /** The least role the caller needs in the session's workspace (default: viewer, to read). */
  least?: TWorkspaceRole;
  /** Lock the session row for the rest of the transaction. */
  forUpdate?: boolean;
}

/**
 * The session if `userId` is a member of its workspace with at least `least`. Anyone who is
 * not a member gets the same 404 as for a session that does not exist, so ids cannot be
 * probed; a member whose role is too low gets 403 `workspace_role_too_low` (decision 040).
 */
export async function findSessionFor(
  db: Queryable,
  userId: string,
  sessionId: string,
  options: FindSessionOptions = {},
): Promise<SessionAccess> {
  if (!isUuid(sessionId)) throw sessionNotFound();
  const { rows } = await db.query<AccessRow>(
    `SELECT ${COLUMNS}, m.role AS member_role FROM sessions s
     JOIN workspace_members m ON m.workspace_id = s.workspace_id AND m.user_id = $2
     WHERE s.id = $1${options.forUpdate ? " FOR UPDATE OF s" : ""}`,
    [sessionId, userId],
  );
  return accessOf(rows[0], options.least);
}

export type AccessRow = SessionRow & { member_role: TWorkspaceRole };

const COLUMNS = SESSION_COLUMNS.split(", ")
  .map((column) => `s.${column}`)
  .join(", ");

function accessOf(row: AccessRow | undefined, least: TWorkspaceRole = "viewer"): SessionAccess {
  if (!row) throw sessionNotFound();
  const access = { ...toOwnedSession(row), role: row.member_role };
  requireRole(access, least);
  return access;
}

/**
 * The same read as `findSessionFor` as one JSON value (null: no such session for this user),
 * for a statement that reads it beside other things: a run's start rides it on the sign-in's
 * statement (decisions 084 and 087). `userId` and `sessionId` (a uuid) are SQL expressions.
 */
export function sessionAccessJson(userId: string, sessionId: string): string {
  return `(SELECT row_to_json(x) FROM (SELECT ${COLUMNS}, m.role AS member_role FROM sessions s
     JOIN workspace_members m ON m.workspace_id = s.workspace_id AND m.user_id = ${userId}
     WHERE s.id = ${sessionId}) x)`;
}

/** What `sessionAccessJson` read, decided as `findSessionFor` decides. */
export function sessionAccessOf(row: AccessRow | null, least?: TWorkspaceRole): SessionAccess {
  if (row === null) return accessOf(undefined);
  row.created_at = isoFromJson(row.created_at as string);
  row.updated_at = isoFromJson(row.updated_at as string);
  if (row.imported_export_at)
    row.imported_export_at = isoFromJson(row.imported_export_at as string);
  return accessOf(row, least);
}

/**
 * Deleting a session: its creator (while still a member) or an admin or owner of its
 * workspace; a viewer cannot delete even what it once created.
 */
export function requireSessionDeletable(session: SessionAccess, userId: string): void {
  requireRole(session, session.userId === userId ? "member" : "admin");
}

/** The session whatever its workspace (the run engine, which checked access at the start). */
export async function getSession(db: Queryable, sessionId: string): Promise<OwnedSession | null> {
  const { rows } = await db.query<SessionRow>(
    `SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = $1`,
    [sessionId],
  );
  return rows[0] ? toOwnedSession(rows[0]) : null;
}
