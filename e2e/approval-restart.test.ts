import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TRunEvent, TSession, TToolApprovalsResponse } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createUser, type TestUser } from "./support/accounts";
import { api, uploadReadyText } from "./support/api";
import { useBaseURL } from "./support/browser";
import { freePort, startServer, stopServer } from "./support/server";

/**
 * A pending approval outlives its server (decision 059): the server is killed (SIGKILL, no
 * drain) while a lane waits for a person, started again on the same data directory; the
 * resumed lane finds the same request rather than asking again, and approving it completes
 * the run once. The file has a server of its own; the shared one never stops.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), "cohort-e2e-approval-"));
let port = 0;
let server: ChildProcess | undefined;

function start(): Promise<ChildProcess> {
  return startServer(port, {
    ADMIN_EMAIL: inject("adminEmail"),
    ADMIN_PASSWORD: inject("adminPassword"),
    DATA_DIR: dataDir,
  });
}

beforeAll(async () => {
  port = await freePort();
  server = await start();
  useBaseURL(`http://127.0.0.1:${port}`);
});
afterAll(async () => {
  useBaseURL(undefined);
  if (server) await stopServer(server);
  rmSync(dataDir, { recursive: true, force: true });
});

async function events(user: TestUser, sessionId: string): Promise<TRunEvent[]> {
  return (
    await api<{ events: TRunEvent[] }>(
      "GET",
      `/api/sessions/${sessionId}/events?after=0&limit=5000`,
      user.token,
    )
  ).events;
}

describe("a server killed while a tool call waits for approval", () => {
  it("after the restart the same request waits; approving it completes the run once", async () => {
    const user = await createUser();
    const documentId = await uploadReadyText(
      user,
      "hours.txt",
      "The bakery opens on Mondays at seven in the morning.",
    );
    const { session } = await api<{ session: TSession }>("POST", "/api/sessions", user.token, {
      title: "Survives a crash while asking",
      tools: { policy: "ask_all", roles: {} },
    });
    await api("PUT", `/api/sessions/${session.id}/documents`, user.token, {
      document_ids: [documentId],
    });
    await api("POST", "/api/ai/chat", user.token, {
      session_id: session.id,
      message: "According to the attached document, when does the bakery open on Mondays?",
    });
    const approvalsOf = (list: TRunEvent[]) =>
      new Set(list.flatMap((e) => (e.type === "tool.approval" ? [e.approval_id] : [])));
    await expect
      .poll(async () => approvalsOf(await events(user, session.id)).size, { timeout: 60_000 })
      .toBeGreaterThan(0);
    // Lanes that work side by side may each be waiting: kill while they all do.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const before = approvalsOf(await events(user, session.id));

    const exited = new Promise((resolve) => server?.once("exit", resolve));
    server?.kill("SIGKILL");
    await exited;
    server = await start();

    // The run is resumed; its lanes ask again with the same requests, still pending.
    await expect
      .poll(async () => (await events(user, session.id)).some((e) => e.type === "run.resumed"), {
        timeout: 60_000,
      })
      .toBe(true);
    const pending = await api<TToolApprovalsResponse>(
      "GET",
      `/api/sessions/${session.id}/approvals`,
      user.token,
    );
    expect(pending.approvals.length).toBeGreaterThan(0);
    for (const approval of pending.approvals) {
      expect(before.has(approval.id)).toBe(true);
      expect(approval.status).toBe("pending");
    }

    // Approve whatever waits (a later lane, the Critic, may ask too) until the run ends.
    let all: TRunEvent[] = [];
    await expect
      .poll(
        async () => {
          const waiting = await api<TToolApprovalsResponse>(
            "GET",
            `/api/sessions/${session.id}/approvals`,
            user.token,
          );
          for (const approval of waiting.approvals) {
            await api("POST", `/api/sessions/${session.id}/approvals/${approval.id}`, user.token, {
              decision: "approve",
            });
          }
          all = await events(user, session.id);
          return all.some((e) => e.type === "run.completed");
        },
        { timeout: 120_000, interval: 500 },
      )
      .toBe(true);
    expect(all.filter((e) => e.type === "run.completed")).toHaveLength(1);
    // Every request made before the kill was answered once, none was asked twice.
    const decided = all.flatMap((e) => (e.type === "tool.approval.decided" ? [e.approval_id] : []));
    expect(new Set(decided).size).toBe(decided.length);
    expect(decided.length).toBe(approvalsOf(all).size);
    for (const id of before) expect(decided).toContain(id);
  }, 300_000);
});
