import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TSession } from "@cohort/contracts";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createUser, signInContext } from "./support/accounts";
import { baseURL, launchBrowser, openPage, screenshot, useBaseURL } from "./support/browser";
import { freePort, startServer, stopServer } from "./support/server";

/**
 * A run outlives its server (decision 047): the server is killed mid-run (SIGKILL, no drain)
 * and started again on the same data directory; it resumes the run from its last completed
 * step, and the page that stayed open shows the run going on, marked as resumed. The file has
 * a server of its own, the shared one never stops.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), "cohort-e2e-resume-"));
let port = 0;
let server: ChildProcess | undefined;
let browser: Browser;

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
  browser = await launchBrowser();
});
afterAll(async () => {
  useBaseURL(undefined);
  await browser?.close();
  if (server) await stopServer(server);
  rmSync(dataDir, { recursive: true, force: true });
});

async function createSession(token: string, title: string): Promise<TSession> {
  const response = await fetch(`${baseURL()}/api/sessions`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ title }),
  });
  if (!response.ok) throw new Error(`POST /api/sessions answered ${response.status}`);
  return ((await response.json()) as { session: TSession }).session;
}

describe("a run whose server dies", () => {
  it("goes on after the restart from its last completed step, and says it was resumed", async () => {
    const user = await createUser();
    const session = await createSession(user.token, "Survives a crash");
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 900 },
    });
    await signInContext(page.context(), user.token);
    await page.goto(`/chat/${session.id}`);
    await page.getByRole("heading", { level: 1, name: "Survives a crash" }).waitFor();

    const box = page.getByRole("textbox", { name: "Message" });
    await expect.poll(() => box.isEnabled()).toBe(true);
    await box.fill("Plan a small landing page for a recipe sharing app");
    await box.press("Enter");
    const run = page.getByTestId("run").last();
    await run.waitFor();

    // One step done and another streaming: the kill lands mid-run.
    const completedLanes = run.locator('[data-testid="agent-lane"][data-status="completed"]');
    await expect.poll(() => completedLanes.count(), { timeout: 60_000 }).toBeGreaterThan(0);
    const kept = await completedLanes
      .first()
      .getByTestId("lane-output")
      .evaluate((output) => ({
        role: output.closest('[data-testid="agent-lane"]')?.getAttribute("data-role") ?? "",
        text: output.textContent ?? "",
      }));
    expect(kept.text.length).toBeGreaterThan(20);
    expect(await run.getAttribute("data-status")).not.toBe("completed");

    const exited = new Promise((resolve) => server?.once("exit", resolve));
    server?.kill("SIGKILL");
    await exited;
    server = await start();

    // The open page reconnects, replays what it missed, and follows the run to its end.
    const resumed = run.getByTestId("run-resumed");
    await resumed.waitFor({ timeout: 60_000 });
    expect(await resumed.textContent()).toContain("resumed after a server stop");
    await expect
      .poll(() => run.getAttribute("data-status"), { timeout: 120_000 })
      .toBe("completed");
    // Every step of the plan ended, those the kill cut off in their second call.
    const steps = await run
      .getByTestId("plan-step")
      .evaluateAll((items) => items.map((item) => item.getAttribute("data-state")));
    expect(steps.length).toBeGreaterThan(1);
    expect(steps.every((state) => state === "done")).toBe(true);
    // The step finished before the kill is the same text, not a second, re-run draft.
    const lane = run.locator(`[data-testid="agent-lane"][data-role="${kept.role}"]`);
    expect(await lane.count()).toBe(1);
    expect(await lane.getByTestId("lane-output").textContent()).toBe(kept.text);
    await resumed.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await screenshot(page, "chat-run-resumed", false);

    // A reload reads the same from the server: the mark is stored with the run.
    await page.reload();
    await page.getByTestId("run").last().getByTestId("run-resumed").waitFor();
    // While the server was down the page's calls and its socket failed to connect.
    expectNoErrors([/ERR_CONNECTION_REFUSED|Failed to load resource|WebSocket|socket/i]);
    await close();
  });
});
