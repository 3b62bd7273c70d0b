import type { TSessionExport } from "@cohort/contracts";

/**
 * Times in an export have milliseconds; stored ones have microseconds, and lists are read
 * back ordered by time, then id. Two calls started in the same millisecond would come back
 * in the order of their new (random) ids. So within each list, a time equal to or before
 * the previous one gets microseconds added, keeping the export's order; read back, every
 * time still shows the export's millisecond.
 */
export function keepExportOrder(data: TSessionExport): TSessionExport {
  const messages = ordered(data.messages.map((m) => m.created_at));
  const runs = ordered(data.runs.map((r) => r.created_at));
  return {
    ...data,
    messages: data.messages.map((m, i) => ({ ...m, created_at: messages[i] ?? m.created_at })),
    runs: data.runs.map((run, i) => {
      const steps = ordered(run.steps.map((s) => s.started_at));
      return {
        ...run,
        created_at: runs[i] ?? run.created_at,
        steps: run.steps.map((s, j) => ({ ...s, started_at: steps[j] ?? s.started_at })),
      };
    }),
  };
}

/** The times with microseconds that make each later than the one before (where parseable). */
function ordered(times: readonly string[]): string[] {
  let previous = Number.NEGATIVE_INFINITY;
  return times.map((time) => {
    const ms = Date.parse(time);
    // Unparseable: left for the database to refuse.
    if (Number.isNaN(ms)) return time;
    // In microseconds since the epoch: one after the previous time when it would not be later.
    const micros = Math.max(ms * 1000, previous + 1);
    previous = micros;
    const whole = Math.floor(micros / 1000);
    const extra = micros - whole * 1000;
    return `${new Date(whole).toISOString().slice(0, 23)}${String(extra).padStart(3, "0")}Z`;
  });
}
