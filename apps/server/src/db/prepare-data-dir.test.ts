import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createDb, type Db } from "./client";
import { migrate } from "./migrate";
import { migrations } from "./migrations";

const newDataDir = () => path.join(mkdtempSync(path.join(tmpdir(), "cohort-prepare-")), "data");

/** Tables, columns, indexes and constraints: what a migration leaves behind. */
async function schemaOf(db: Db): Promise<unknown[]> {
  const { rows } = await db.query(
    `SELECT 'column' AS kind, table_name || '.' || column_name || ' ' || data_type || ' ' ||
       is_nullable || ' ' || COALESCE(column_default, '') AS item
     FROM information_schema.columns WHERE table_schema = 'public'
     UNION ALL
     SELECT 'index', indexdef FROM pg_indexes WHERE schemaname = 'public'
     UNION ALL
     SELECT 'constraint', conrelid::regclass || ' ' || pg_get_constraintdef(oid)
     FROM pg_constraint WHERE connamespace = 'public'::regnamespace
     ORDER BY 1, 2`,
  );
  return rows;
}

describe("a new embedded data directory", () => {
  it("opens with every migration applied, the schema migrate() builds", async () => {
    const fromTemplate = await createDb({ dataDir: newDataDir() });
    const migrated = await createDb({});
    try {
      expect(await migrate(fromTemplate)).toEqual([]);
      const { rows } = await fromTemplate.query<{ id: string }>(
        "SELECT id FROM schema_migrations ORDER BY id",
      );
      expect(rows.map((row) => row.id)).toEqual(migrations.map((m) => m.id).sort());
      await migrate(migrated);
      expect(await schemaOf(fromTemplate)).toEqual(await schemaOf(migrated));
    } finally {
      await Promise.all([fromTemplate.close(), migrated.close()]);
    }
  }, 120_000);

  it("is its own database, and an existing one is opened as it is", async () => {
    const firstDir = newDataDir();
    const first = await createDb({ dataDir: firstDir });
    await first.query("INSERT INTO app_meta (key, value) VALUES ('marker', '1')");
    await first.close();
    const second = await createDb({ dataDir: newDataDir() });
    const reopened = await createDb({ dataDir: firstDir });
    try {
      const marker = "SELECT 1 FROM app_meta WHERE key = 'marker'";
      expect((await second.query(marker)).rows).toHaveLength(0);
      expect((await reopened.query(marker)).rows).toHaveLength(1);
    } finally {
      await Promise.all([second.close(), reopened.close()]);
    }
  }, 120_000);
});
