import type { Db } from "./client";
import { migrations } from "./migrations";

export interface Migration {
  /** Sorts in order of application, e.g. "0001_foundation". */
  id: string;
  sql: string;
}

const SCHEMA_MIGRATIONS =
  "CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())";

/**
 * Applies pending migrations in one transaction. On PostgreSQL an advisory lock makes
 * concurrent instances wait for each other instead of racing.
 */
export async function migrate(db: Db, list: readonly Migration[] = migrations): Promise<string[]> {
  if (await allApplied(db, list)) return [];
  return db.transaction(async (tx) => {
    // The lock first, then the bookkeeping table: two instances starting on an empty
    // database would otherwise both create it (a duplicate pg_type row for one of them).
    if (db.kind === "postgres") {
      await tx.query(
        "SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.cohort_migrations'))",
      );
    }
    await tx.exec(SCHEMA_MIGRATIONS);
    const { rows } = await tx.query<{ id: string }>("SELECT id FROM schema_migrations");
    const applied = new Set(rows.map((r) => r.id));
    const pending = [...list]
      .sort((a, b) => a.id.localeCompare(b.id))
      .filter((m) => !applied.has(m.id));
    for (const migration of pending) {
      await tx.exec(migration.sql);
      await tx.query("INSERT INTO schema_migrations (id) VALUES ($1)", [migration.id]);
    }
    return pending.map((m) => m.id);
  });
}

/**
 * A start on an up-to-date database (every start but the first after an upgrade) is one
 * statement: no transaction, no lock, no DDL (decision 085). Anything else (a migration not
 * applied, no bookkeeping table yet) takes the locked path above, which decides again.
 */
async function allApplied(db: Db, list: readonly Migration[]): Promise<boolean> {
  try {
    const { rows } = await db.query<{ applied: number }>(
      "SELECT count(*)::int AS applied FROM schema_migrations WHERE id = ANY($1::text[])",
      [list.map((m) => m.id)],
    );
    return rows[0]?.applied === list.length;
  } catch (error) {
    // undefined_table: a database no migration has touched yet.
    if ((error as { code?: unknown } | null)?.code === "42P01") return false;
    throw error;
  }
}

/**
 * What `migrate` does to an empty database, as one script: a new embedded data directory is
 * made from it once, in a child process (prepare-data-dir.ts). Line breaks around each
 * semicolon keep a migration's closing line comment from swallowing the next statement.
 */
export function migrationScript(list: readonly Migration[] = migrations): string {
  const quote = (id: string) => `'${id.replaceAll("'", "''")}'`;
  const steps = [...list]
    .sort((a, b) => a.id.localeCompare(b.id))
    .flatMap((m) => [m.sql, `INSERT INTO schema_migrations (id) VALUES (${quote(m.id)})`]);
  return [SCHEMA_MIGRATIONS, "BEGIN", ...steps, "COMMIT"].join("\n;\n");
}
