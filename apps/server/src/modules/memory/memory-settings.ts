import type { TMemorySettings, TUpdateMemorySettings } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

const DEFAULTS: TMemorySettings = { paused: false, auto_save: false };

/** The user's memory switches; a user who never changed them has the defaults. */
export async function getMemorySettings(db: Queryable, userId: string): Promise<TMemorySettings> {
  const { rows } = await db.query<TMemorySettings>(
    "SELECT paused, auto_save FROM memory_settings WHERE user_id = $1",
    [userId],
  );
  return rows[0] ?? DEFAULTS;
}

/** Changes only the switches given; the others keep their value. */
export async function updateMemorySettings(
  db: Queryable,
  userId: string,
  change: TUpdateMemorySettings,
): Promise<TMemorySettings> {
  const { rows } = await db.query<TMemorySettings>(
    `INSERT INTO memory_settings (user_id, paused, auto_save) VALUES ($1, COALESCE($2, false), COALESCE($3, false))
     ON CONFLICT (user_id) DO UPDATE SET
       paused = COALESCE($2, memory_settings.paused),
       auto_save = COALESCE($3, memory_settings.auto_save),
       updated_at = now()
     RETURNING paused, auto_save`,
    [userId, change.paused ?? null, change.auto_save ?? null],
  );
  return rows[0] ?? DEFAULTS;
}
