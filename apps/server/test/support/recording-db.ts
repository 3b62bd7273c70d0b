import type { Db, Queryable } from "../../src/db/client";

/** What a test does around each statement the app sends (a recording, or a fault). */
export interface StatementHook {
  /** Before the statement is sent; throwing fails it unsent. */
  before?(sql: string, params: readonly unknown[]): Promise<void> | void;
  /** After it was answered (committed, outside a transaction); throwing loses the answer. */
  after?(sql: string): void;
}

/** The database as the app sees it, recording every statement the app sends. */
export function recording(db: Db, hook: StatementHook = {}): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const wrap = (q: Queryable): Queryable => ({
    query: async <R>(sql: string, params?: unknown[]) => {
      statements.push(sql);
      await hook.before?.(sql, params ?? []);
      const answer = await q.query<R>(sql, params);
      hook.after?.(sql);
      return answer;
    },
    exec: (sql) => {
      statements.push(sql);
      return q.exec(sql);
    },
  });
  return {
    statements,
    db: {
      ...wrap(db),
      kind: db.kind,
      ping: () => db.ping(),
      transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
      close: () => db.close(),
    },
  };
}
