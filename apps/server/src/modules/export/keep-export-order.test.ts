import type { TSessionExport } from "@cohort/contracts";
import { describe, expect, it } from "vitest";
import { keepExportOrder } from "./keep-export-order";

const message = (id: string, created_at: string) => ({
  id,
  session_id: "s",
  role: "user" as const,
  content: id,
  run_id: null,
  created_at,
});

function exportWith(times: string[]): TSessionExport {
  return {
    format: "cohort.session",
    version: 1,
    exported_at: "2026-01-01T00:00:00.000Z",
    session: {
      id: "s",
      title: "t",
      description: "",
      coordinator_model: "coreason",
      manual_agent_selection: false,
      agent_preferences: null,
      budget_credits: null,
      spent_credits: 0,
      status: "active",
      created_at: "2026-01-01T00:00:00.000Z",
    },
    messages: times.map((time, i) => message(`m${i}`, time)),
    runs: [],
    documents: [],
    images: [],
  };
}

describe("keepExportOrder", () => {
  it("makes times of the same millisecond increase by microseconds, in the export's order", () => {
    const same = "2026-01-02T03:04:05.123Z";
    const later = "2026-01-02T03:04:06.000Z";
    const kept = keepExportOrder(exportWith([same, same, same, later, "not a time"]));
    expect(kept.messages.map((m) => m.created_at)).toEqual([
      "2026-01-02T03:04:05.123000Z",
      "2026-01-02T03:04:05.123001Z",
      "2026-01-02T03:04:05.123002Z",
      "2026-01-02T03:04:06.000000Z",
      "not a time",
    ]);
    // Read back with milliseconds, every time is the export's own.
    expect(kept.messages.slice(0, 4).map((m) => new Date(m.created_at).toISOString())).toEqual([
      same,
      same,
      same,
      later,
    ]);
  });
});
