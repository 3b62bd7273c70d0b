import {
  ERROR_CODES,
  MEMORY_ERROR_CODES,
  MEMORY_MESSAGES,
  type TMemory,
  type TMemoryKind,
} from "@cohort/contracts";
import { isUniqueViolation, type Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from "./memory-row";

function notFound(): AppError {
  return new AppError(ERROR_CODES.notFound, 404, MEMORY_MESSAGES.notFound);
}

/** One statement that changes the user's own memory; 404 when it is not theirs, 409 on a repeat. */
async function changeOne(db: Queryable, sql: string, params: unknown[]): Promise<TMemory> {
  let rows: MemoryRow[];
  try {
    ({ rows } = await db.query<MemoryRow>(sql, params));
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new AppError(MEMORY_ERROR_CODES.duplicate, 409, MEMORY_MESSAGES.duplicate);
  }
  const row = rows[0];
  if (!row) throw notFound();
  return toMemory(row);
}

/** Approves a proposal (or a rejected one, changed mind), with the user's edit when given. */
export function approveMemory(
  db: Queryable,
  userId: string,
  id: string,
  text: string | undefined,
): Promise<TMemory> {
  return changeOne(
    db,
    `UPDATE memories SET status = 'approved', text = COALESCE($3, text), updated_at = clock_timestamp()
     WHERE id = $1 AND user_id = $2 RETURNING ${MEMORY_COLUMNS}`,
    [id, userId, text ?? null],
  );
}

/** Rejects a proposal; it is kept so that the same line is not proposed again. */
export function rejectMemory(db: Queryable, userId: string, id: string): Promise<TMemory> {
  return changeOne(
    db,
    `UPDATE memories SET status = 'rejected', updated_at = clock_timestamp()
     WHERE id = $1 AND user_id = $2 RETURNING ${MEMORY_COLUMNS}`,
    [id, userId],
  );
}

/** Edits a memory's text (and kind); its state stays. */
export function updateMemory(
  db: Queryable,
  userId: string,
  id: string,
  change: { text: string; kind?: TMemoryKind | undefined },
): Promise<TMemory> {
  return changeOne(
    db,
    `UPDATE memories SET text = $3, kind = COALESCE($4, kind), updated_at = clock_timestamp()
     WHERE id = $1 AND user_id = $2 RETURNING ${MEMORY_COLUMNS}`,
    [id, userId, change.text, change.kind ?? null],
  );
}

/** Deletes one memory for good; 404 when it is not the user's. */
export async function deleteMemory(db: Queryable, userId: string, id: string): Promise<void> {
  const { rowCount } = await db.query("DELETE FROM memories WHERE id = $1 AND user_id = $2", [
    id,
    userId,
  ]);
  if (rowCount === 0) throw notFound();
}

/** Deletes every memory the user has, proposals and rejected lines included. */
export async function deleteAllMemories(db: Queryable, userId: string): Promise<number> {
  const { rowCount } = await db.query("DELETE FROM memories WHERE user_id = $1", [userId]);
  return rowCount;
}
