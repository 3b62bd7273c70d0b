import type { HostResolver } from "../../src/platform/ssrf";

/** One Server-Sent Event as a client reads it: its name and its JSON data. */
export interface SseEvent {
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read fields of whatever event arrived
  data: any;
}

/** Parses a complete SSE body (`event:` / `data:` frames; comments skipped). */
export function parseSse(body: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const frame of body.split(/\n\n/)) {
    let event = "message";
    const data: string[] = [];
    for (const line of frame.split("\n")) {
      if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data.push(line.slice(6));
    }
    if (data.length > 0) events.push({ event, data: JSON.parse(data.join("\n")) });
  }
  return events;
}

/**
 * DNS answers from a table, for the SSRF guard: no test asks a real resolver, and a name a
 * test makes up can point wherever the test needs (usually at a local fake server).
 */
export function fakeDns(table: Record<string, string[]>): HostResolver {
  return async (hostname) =>
    (table[hostname] ?? []).map((address) => ({
      address,
      family: address.includes(":") ? (6 as const) : (4 as const),
    }));
}
