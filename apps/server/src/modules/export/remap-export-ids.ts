import { randomUUID } from "node:crypto";
import type { TExportedRun, TSessionExport } from "@cohort/contracts";

/**
 * The export with every stored id replaced by a fresh one, the same id always by the same
 * new one (so the links between messages, runs, calls and passages hold). Documents, chunks
 * and memories get ids that point at nothing here: an import cannot reach anyone's document
 * or memory by naming its id; it keeps their names and texts only. Plan step ids ("s1") and
 * citation numbers are the run's own labels, not stored ids, and stay.
 */
export function remapExportIds(input: TSessionExport, sessionId: string): TSessionExport {
  const ids = new Map<string, string>();
  const fresh = (id: string) => {
    let next = ids.get(id);
    if (!next) {
      next = randomUUID();
      ids.set(id, next);
    }
    return next;
  };
  const freshOrNull = (id: string | null) => (id === null ? null : fresh(id));
  return {
    ...input,
    session: { ...input.session, id: sessionId },
    messages: input.messages.map((m) => ({
      ...m,
      id: fresh(m.id),
      session_id: sessionId,
      run_id: freshOrNull(m.run_id),
      // The run it follows (decision 070): absent in exports from before branches.
      ...(m.parent_run_id === undefined ? {} : { parent_run_id: freshOrNull(m.parent_run_id) }),
    })),
    runs: input.runs.map((run) => remapRun(run, sessionId, fresh, freshOrNull)),
    documents: input.documents.map((d) => ({ ...d, id: fresh(d.id) })),
  };
}

function remapRun(
  run: TExportedRun,
  sessionId: string,
  fresh: (id: string) => string,
  freshOrNull: (id: string | null) => string | null,
): TExportedRun {
  const plan = run.plan && {
    ...run.plan,
    steps: run.plan.steps.map((s) =>
      s.document_ids ? { ...s, document_ids: s.document_ids.map(fresh) } : s,
    ),
    ...(run.plan.documents && {
      documents: run.plan.documents.map((d) => ({ ...d, id: fresh(d.id) })),
    }),
    ...(run.plan.memories && {
      memories: run.plan.memories.map((m) => ({ ...m, id: fresh(m.id) })),
    }),
  };
  return {
    ...run,
    id: fresh(run.id),
    session_id: sessionId,
    message_id: fresh(run.message_id),
    result_message_id: freshOrNull(run.result_message_id),
    ...(run.fork ? { fork: { ...run.fork, from_run_id: fresh(run.fork.from_run_id) } } : {}),
    plan,
    steps: run.steps.map((s) => ({ ...s, id: fresh(s.id), rerun_of: freshOrNull(s.rerun_of) })),
    passages: run.passages.map((p) => ({
      ...p,
      chunk_id: fresh(p.chunk_id),
      document_id: fresh(p.document_id),
    })),
    memories: run.memories.map((m) => ({ ...m, id: fresh(m.id) })),
    critic_verdicts: run.critic_verdicts.map((v) => ({
      ...v,
      call_id: fresh(v.call_id),
      ...(v.rerun_call_id === undefined ? {} : { rerun_call_id: fresh(v.rerun_call_id) }),
    })),
  };
}
