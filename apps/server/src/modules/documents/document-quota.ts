import type { Queryable } from "../../db/client";
import { importedSessionBytes } from "../sessions/import-session";

/**
 * Counts `bytes` against the user's storage quota, atomically: one conditional upsert, so
 * parallel uploads (on any instance) cannot together pass the quota. False when it would.
 */
export async function reserveStorage(
  db: Queryable,
  userId: string,
  bytes: number,
  quotaBytes: number,
): Promise<boolean> {
  const { rows } = await db.query(
    `INSERT INTO document_usage (user_id, used_bytes)
       SELECT $1, $2::bigint WHERE $2::bigint <= $3::bigint
     ON CONFLICT (user_id) DO UPDATE SET used_bytes = document_usage.used_bytes + EXCLUDED.used_bytes
       WHERE document_usage.used_bytes + EXCLUDED.used_bytes <= $3::bigint
     RETURNING used_bytes`,
    [userId, bytes, quotaBytes],
  );
  return rows.length === 1;
}

/** Gives `bytes` back (a deleted document). */
export async function releaseStorage(db: Queryable, userId: string, bytes: number): Promise<void> {
  await db.query(
    "UPDATE document_usage SET used_bytes = greatest(used_bytes - $2::bigint, 0) WHERE user_id = $1",
    [userId, bytes],
  );
}

/** Documents and imported sessions together (decision 052). */
export async function usedStorage(db: Queryable, userId: string): Promise<number> {
  const { rows } = await db.query<{ used_bytes: number | string }>(
    "SELECT used_bytes FROM document_usage WHERE user_id = $1",
    [userId],
  );
  return Number(rows[0]?.used_bytes ?? 0) + (await importedSessionBytes(db, userId));
}

/**
 * Whether `bytes` more fit the user's storage (documents and imported sessions), holding the
 * user's usage row locked to the end of the transaction: an upload and an import (each
 * calls this first) are serialised, so together they cannot pass the quota.
 */
export async function fitsStorage(
  tx: Queryable,
  userId: string,
  bytes: number,
  quotaBytes: number,
): Promise<boolean> {
  const { rows } = await tx.query<{ used_bytes: number | string }>(
    `INSERT INTO document_usage (user_id, used_bytes) VALUES ($1, 0)
     ON CONFLICT (user_id) DO UPDATE SET used_bytes = document_usage.used_bytes
     RETURNING used_bytes`,
    [userId],
  );
  const documents = Number(rows[0]?.used_bytes ?? 0);
  return documents + (await importedSessionBytes(tx, userId)) + bytes <= quotaBytes;
}
