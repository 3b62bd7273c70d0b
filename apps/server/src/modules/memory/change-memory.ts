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

/**
 * One statement that changes one memory (the caller has checked the user may:
 * `requireMemoryChange`); 404 when it is gone, 409 on a repeat.
 */
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
  id: string,
  text: string | undefined,
): Promise<TMemory> {
  return changeOne(
    db,
    `UPDATE memories SET status = 'approved', text = COALESCE($2, text), updated_at = clock_timestamp()
     WHERE id = $1 RETURNING ${MEMORY_COLUMNS}`,
    [id, text ?? null],
  );
}

/** Rejects a proposal; it is kept so that the same line is not proposed again. */
export function rejectMemory(db: Queryable, id: string): Promise<TMemory> {
  return changeOne(
    db,
    `UPDATE memories SET status = 'rejected', updated_at = clock_timestamp()
     WHERE id = $1 RETURNING ${MEMORY_COLUMNS}`,
    [id],
  );
}

/** Edits a memory's text (and kind); its state stays. */
export function updateMemory(
  db: Queryable,
  id: string,
  change: { text: string; kind?: TMemoryKind | undefined },
): Promise<TMemory> {
  return changeOne(
    db,
    `UPDATE memories SET text = $2, kind = COALESCE($3, kind), updated_at = clock_timestamp()
     WHERE id = $1 RETURNING ${MEMORY_COLUMNS}`,
    [id, change.text, change.kind ?? null],
  );
}

/** Deletes one memory for good (the caller has checked the user may); 404 when it is gone. */
export async function deleteMemory(db: Queryable, id: string): Promise<void> {
  const { rowCount } = await db.query("DELETE FROM memories WHERE id = $1", [id]);
  if (rowCount === 0) throw notFound();
}

/**
 * Deletes every memory the user's runs proposed, in any workspace, proposals and rejected
 * lines included ("forget what I taught it").
 */
export async function deleteAllMemories(db: Queryable, userId: string): Promise<number> {
  const { rowCount } = await db.query("DELETE FROM memories WHERE user_id = $1", [userId]);
  return rowCount;
}
