import type { Queryable } from "../../db/client";

/** What decides, besides the session's policy, whether a call may go without asking. */
export interface SessionToolRules {
  /** Tools a person chose to always allow in this session. */
  alwaysAllowed: Set<string>;
  /** Started through the public API or MCP: nobody can answer, so asking means denying. */
  unattended: "api" | "mcp" | null;
}

export async function readSessionToolRules(
  db: Queryable,
  sessionId: string,
): Promise<SessionToolRules> {
  const { rows } = await db.query<{ kind: "allow" | "unattended"; value: string }>(
    `SELECT 'allow' AS kind, tool AS value FROM session_tool_allows WHERE session_id = $1
     UNION ALL
     SELECT 'unattended' AS kind, via AS value FROM unattended_sessions WHERE session_id = $1`,
    [sessionId],
  );
  const rules: SessionToolRules = { alwaysAllowed: new Set(), unattended: null };
  for (const row of rows) {
    if (row.kind === "allow") rules.alwaysAllowed.add(row.value);
    else rules.unattended = row.value as "api" | "mcp";
  }
  return rules;
}

export async function listAlwaysAllowed(db: Queryable, sessionId: string): Promise<string[]> {
  const { rows } = await db.query<{ tool: string }>(
    "SELECT tool FROM session_tool_allows WHERE session_id = $1 ORDER BY tool",
    [sessionId],
  );
  return rows.map((row) => row.tool);
}

export async function allowToolInSession(
  db: Queryable,
  sessionId: string,
  tool: string,
  userId: string,
): Promise<void> {
  await db.query(
    `INSERT INTO session_tool_allows (session_id, tool, allowed_by) VALUES ($1, $2, $3)
     ON CONFLICT (session_id, tool) DO NOTHING`,
    [sessionId, tool, userId],
  );
}

/**
 * Marks a session started through the public API or MCP `run_team` before its run starts:
 * its calls that would need approval are denied at once, and the answer says so.
 */
export async function markSessionUnattended(
  db: Queryable,
  sessionId: string,
  via: "api" | "mcp",
): Promise<void> {
  await db.query(
    `INSERT INTO unattended_sessions (session_id, via) VALUES ($1, $2)
     ON CONFLICT (session_id) DO NOTHING`,
    [sessionId, via],
  );
}
