import { setTimeout as sleep } from "node:timers/promises";
import type { TRunEvent, TSession } from "@cohort/contracts";
import type { TestClient } from "./client";

/** A session's team chosen by hand: the Coder on CoLogic and the Critic on CoReason. */
export const CODER_AND_CRITIC = {
  manual_agent_selection: true,
  agent_preferences: {
    coder: { enabled: true, model: "cologic" },
    critic: { enabled: true, model: "coreason" },
  },
};

/**
 * Helpers for tests of sessions and runs: create a session, send a message, and wait for
 * the run's end through the stored events (the same data join-session replays).
 */
export async function createSession(
  client: TestClient,
  body: Record<string, unknown> = {},
): Promise<TSession> {
  const response = await client.post("/api/sessions", { title: "A session", ...body });
  if (response.statusCode !== 201) {
    throw new Error(`session not created: ${response.statusCode} ${response.body}`);
  }
  return response.json().session as TSession;
}

export async function sendMessage(
  client: TestClient,
  sessionId: string,
  message: string,
): Promise<{ run_id: string; message_id: string }> {
  const response = await client.post("/api/ai/chat", { session_id: sessionId, message });
  if (response.statusCode !== 202) {
    throw new Error(`message not accepted: ${response.statusCode} ${response.body}`);
  }
  return response.json();
}

export async function sessionEvents(
  client: TestClient,
  sessionId: string,
  after = 0,
): Promise<TRunEvent[]> {
  const events: TRunEvent[] = [];
  let cursor = after;
  for (;;) {
    const response = await client.get(
      `/api/sessions/${sessionId}/events?after=${cursor}&limit=5000`,
    );
    if (response.statusCode !== 200)
      throw new Error(`events: ${response.statusCode} ${response.body}`);
    const page = response.json() as { events: TRunEvent[]; has_more: boolean };
    events.push(...page.events);
    cursor = page.events.at(-1)?.seq ?? cursor;
    if (!page.has_more) return events;
  }
}

const TERMINAL = new Set(["run.completed", "run.failed", "run.cancelled"]);

/** Resolves with the run's events once it ended; polls the stored events. */
export async function waitForRunEnd(
  client: TestClient,
  sessionId: string,
  runId: string,
  timeoutMs = 20_000,
): Promise<TRunEvent[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const events = (await sessionEvents(client, sessionId)).filter((e) => e.run_id === runId);
    if (events.some((e) => TERMINAL.has(e.type))) {
      // The end event is the last one a run writes; give stragglers a moment to land.
      return events;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `run ${runId} did not end in ${timeoutMs} ms: ${events.map((e) => e.type).join(", ")}`,
      );
    }
    await sleep(20);
  }
}

/** Sends a message and waits for the run it starts to end: the run's id and its events. */
export async function runToEnd(
  client: TestClient,
  sessionId: string,
  message: string,
  timeoutMs?: number,
): Promise<{ run_id: string; message_id: string; events: TRunEvent[] }> {
  const started = await sendMessage(client, sessionId, message);
  const events = await waitForRunEnd(client, sessionId, started.run_id, timeoutMs);
  return { ...started, events };
}

/** Resolves with the first stored event of the run that matches. */
export async function waitForEvent(
  client: TestClient,
  sessionId: string,
  match: (event: TRunEvent) => boolean,
  timeoutMs = 20_000,
): Promise<TRunEvent> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await sessionEvents(client, sessionId)).find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no matching event within ${timeoutMs} ms`);
    await sleep(10);
  }
}

/** Until another instance picked the run up after a restart (its `run.resumed` event). */
export function waitForResume(
  client: TestClient,
  sessionId: string,
  runId: string,
  timeoutMs?: number,
): Promise<TRunEvent> {
  return waitForEvent(
    client,
    sessionId,
    (e) => e.run_id === runId && e.type === "run.resumed",
    timeoutMs,
  );
}

export function eventsOf<K extends TRunEvent["type"]>(
  events: readonly TRunEvent[],
  type: K,
): Extract<TRunEvent, { type: K }>[] {
  return events.filter((e): e is Extract<TRunEvent, { type: K }> => e.type === type);
}
