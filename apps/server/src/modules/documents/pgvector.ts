import type { Db } from "../../db/client";

const known = new WeakMap<Db, Promise<boolean>>();

/**
 * Whether the database has pgvector: created here when it is available (PGlite loads it in
 * its worker; a PostgreSQL server may or may not have the package). Without it, vectors stay
 * real[] and similarity is computed in plain SQL (decision 036).
 */
export function hasPgvector(db: Db): Promise<boolean> {
  let answer = known.get(db);
  if (!answer) {
    answer = (async () => {
      const { rows } = await db.query(
        "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'",
      );
      if (rows.length === 0) return false;
      try {
        await db.exec("CREATE EXTENSION IF NOT EXISTS vector");
        return true;
      } catch {
        return false;
      }
    })();
    known.set(db, answer);
  }
  return answer;
}
