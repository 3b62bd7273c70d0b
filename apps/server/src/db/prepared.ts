const preparedNames = new Map<string, string>();

/**
 * Marks a hot statement (a constant SQL text) to be prepared once per connection and then only
 * bound and executed: planning a multi-part statement costs the server more than running it
 * (reserve + settle went from ~770 to ~1,600 pairs/s on PostgreSQL, decision 020). The text
 * itself is returned, so callers and wrappers keep passing plain strings. PostgreSQL prepares
 * it on each pooled connection (node-postgres' named statements); PGlite, with its one
 * connection, once in its worker (pglite-worker.ts).
 */
export function prepared(sql: string): string {
  if (!preparedNames.has(sql)) preparedNames.set(sql, `cohort_${preparedNames.size + 1}`);
  return sql;
}

/** The name a `prepared` statement runs under; undefined for any other text. */
export function preparedName(sql: string): string | undefined {
  return preparedNames.get(sql);
}
