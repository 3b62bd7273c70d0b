import type { GatewayMessage } from "../models/gateway";
import type { RunContext } from "./run-context";

/**
 * Messages a person sends while the team works (decision 069): stored as `run_interventions`
 * rows of kind `message`, announced by the run (`message.queued`) and taken at the next step
 * boundary: every later step's prompt carries them, and the answer's too.
 */
interface MessageRow {
  id: string;
  note: string;
  created_by_name: string | null;
  /** Taken by this statement (else before it). */
  taken_now: boolean;
  /** Taken by this statement before the watcher announced it. */
  fresh: boolean;
}

/** The key a run's waiters are woken with when someone steers it or queues a message. */
export const runSteeringKey = (runId: string) => `run:${runId}`;

/**
 * Takes the queued messages not taken yet (for the step `beforeStep`; null: the answer) and
 * returns every message the run has taken so far, oldest first: one statement at every step
 * boundary (decision 086), the ones it takes and the ones taken before. The earlier ones are
 * read in the statement's snapshot: a message a parallel lane takes at the same moment is
 * that lane's, as one queued a moment later would be.
 */
export async function takeQueuedMessages(
  ctx: RunContext,
  beforeStep: string | null,
): Promise<string[]> {
  if (!ctx.deps.steering) return [];
  const { rows } = await ctx.deps.db.query<MessageRow>(
    `WITH t AS (
       SELECT id, announced_at IS NULL AS fresh FROM run_interventions
       WHERE run_id = $1 AND kind = 'message' AND taken_at IS NULL FOR UPDATE
     ), taken AS (
       UPDATE run_interventions r SET taken_at = clock_timestamp(), taken_step_id = $2,
         announced_at = COALESCE(r.announced_at, clock_timestamp())
       FROM t WHERE r.id = t.id
       RETURNING r.id, r.note, r.created_by_name, r.created_at, t.fresh
     )
     SELECT id, note, created_by_name, true AS taken_now, fresh, created_at FROM taken
     UNION ALL
     SELECT id, note, created_by_name, false, false, created_at FROM run_interventions
     WHERE run_id = $1 AND kind = 'message' AND taken_at IS NOT NULL
     ORDER BY created_at, id`,
    [ctx.runId, beforeStep],
  );
  const taken = rows.filter((r) => r.taken_now);
  if (taken.length > 0) {
    // Announced here when the watcher had not yet: `message.queued` always comes first.
    for (const row of taken.filter((r) => r.fresh)) {
      void ctx.events.append({
        type: "message.queued",
        queued_id: row.id,
        text: row.note,
        by_name: row.created_by_name,
      });
    }
    void ctx.events.append({
      type: "message.taken",
      queued_ids: taken.map((r) => r.id),
      before_step: beforeStep,
    });
  }
  return rows.map((r) => r.note);
}

/** What the prompt says about the messages (none: nothing). */
export function userNotesBlock(notes: readonly string[]): string {
  if (notes.length === 0) return "";
  return [
    "The user sent these messages while the team was working; take them into account:",
    ...notes.map((note) => `- ${note.replace(/\n+/g, " ")}`),
  ].join("\n");
}

/** The call's last user message with `text` appended (unchanged when `text` is empty). */
export function appendToPrompt(messages: GatewayMessage[], text: string): GatewayMessage[] {
  if (!text) return messages;
  const index = messages.map((m) => m.role).lastIndexOf("user");
  if (index < 0) return [...messages, { role: "user", content: text }];
  return messages.map((m, i) => (i === index ? { ...m, content: `${m.content}\n\n${text}` } : m));
}
