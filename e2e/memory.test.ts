import { readFileSync } from "node:fs";
import {
  type TSession,
  type TSubscriptionTier,
  type TUserProfile,
  ZMemoryExport,
} from "@cohort/contracts";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, createUser, signInContext, type TestUser } from "./support/accounts";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";
import { expectToast, switchToWorkspace } from "./support/ui";

/**
 * Memory in a real browser against the built server and its simulator (decision 038): the gate
 * a free user sees in Settings, then a Pro+ user who approves, edits and rejects what the
 * coordinator proposes after a run, and searches, edits and deletes in Settings → Memory.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const desktop = { viewport: { width: 1280, height: 900 } };
const RUN_TIMEOUT = 90_000;
const TASK =
  "I prefer TypeScript with strict types. We use PostgreSQL for storage. Build an order tracker for our bakery.";

async function call<T>(method: string, path: string, bearer: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseURL()}${path}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** A verified account on `tier` with credits for a few runs, signed in on a fresh page. */
async function userOn(
  tier: TSubscriptionTier,
): Promise<{ user: TestUser; page: Page } & Awaited<ReturnType<typeof openPage>>> {
  const user = await createUser();
  const { user: profile } = await call<{ user: TUserProfile }>(
    "GET",
    "/api/users/profile",
    user.token,
  );
  const admin = await adminToken();
  if (tier !== "free") {
    await call("PUT", `/api/admin/users/${profile.id}/tier`, admin, { tier });
    await call("POST", `/api/admin/users/${profile.id}/credits`, admin, {
      delta: 200,
      reason: "e2e memory runs",
    });
  }
  const guarded = await openPage(browser, desktop);
  await signInContext(guarded.page.context(), user.token);
  return { user, ...guarded };
}

function memorySection(page: Page): Locator {
  return page.getByRole("region", { name: "Memory" });
}

describe("Settings → Memory", () => {
  it("explains the Pro+ gate to a free user, with the way to upgrade", async () => {
    const { page, expectNoErrors, close } = await userOn("free");
    await page.goto("/settings");
    const section = memorySection(page);
    await section.getByTestId("memory-gate").waitFor();
    expect(await section.textContent()).toContain(
      "Memory is part of the Pro+ and Enterprise plans.",
    );
    expect(
      await section.getByRole("link", { name: "Upgrade on the Billing page" }).getAttribute("href"),
    ).toBe("/billing");
    expect(await section.getByRole("link", { name: "compare plans" }).getAttribute("href")).toBe(
      "/pricing",
    );
    expect(await section.getByRole("switch").count()).toBe(0);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, "memory-gate-free", false);
    expectNoErrors();
    await close();
  });

  it("lets a Pro+ user decide on a run's proposals, see them used by the next run, then search, edit, export and delete them", async () => {
    const { user, page, expectNoErrors, close } = await userOn("pro+");
    const { session } = await call<{ session: TSession }>("POST", "/api/sessions", user.token, {
      title: "Bakery tracker",
    });
    await page.goto(`/chat/${session.id}`);
    const box = page.getByRole("textbox", { name: "Message" });
    await expect.poll(() => box.isEnabled()).toBe(true);
    await box.fill(TASK);
    await box.press("Enter");
    const run = page.getByTestId("run").last();
    await expect
      .poll(() => run.getAttribute("data-status"), { timeout: RUN_TIMEOUT })
      .toBe("completed");

    // The proposals arrive over the socket a moment after the answer: no reload.
    const proposals = run.getByTestId("run-memory-proposals");
    await proposals.waitFor({ timeout: 20_000 });
    const lines = proposals.getByTestId("memory-proposal");
    await expect.poll(() => lines.count()).toBe(3);
    expect(await lines.allTextContents()).toEqual([
      expect.stringContaining("You prefer TypeScript with strict types."),
      expect.stringContaining("You use PostgreSQL for storage."),
      expect.stringContaining("You asked the team about an order tracker for your bakery."),
    ]);
    await proposals.scrollIntoViewIfNeeded();
    await screenshot(page, "memory-run-proposals", false);

    await proposals
      .getByRole("button", { name: "Approve: You prefer TypeScript with strict types." })
      .click();
    await expect.poll(() => lines.nth(0).getAttribute("data-status")).toBe("approved");
    await proposals.getByRole("button", { name: "Edit: You use PostgreSQL for storage." }).click();
    const editBox = proposals.getByLabel("Memory text");
    await editBox.fill("You use PostgreSQL 17 for storage.");
    await proposals.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => lines.nth(1).getAttribute("data-status")).toBe("approved");
    expect(await lines.nth(1).textContent()).toContain("You use PostgreSQL 17 for storage.");
    await proposals.getByRole("button", { name: /^Reject: You asked the team/ }).click();
    await expect.poll(() => lines.nth(2).getAttribute("data-status")).toBe("rejected");
    await screenshot(page, "memory-run-proposals-decided", false);

    // The next task in another words gets the approved memories it shares words with.
    await box.fill("Write a TypeScript test for the order tracker.");
    await box.press("Enter");
    await expect.poll(() => page.getByTestId("run").count()).toBe(2);
    const next = page.getByTestId("run").last();
    await expect
      .poll(() => next.getAttribute("data-status"), { timeout: RUN_TIMEOUT })
      .toBe("completed");
    expect(await next.getByTestId("used-memory").allTextContents()).toContainEqual(
      expect.stringContaining("You prefer TypeScript with strict types."),
    );
    // Memory is kept per workspace: the run says whose it used.
    expect(await next.getByTestId("used-memories-source").textContent()).toBe(
      "From the approved memories of your personal workspace. Manage memory",
    );
    await next.getByTestId("run-memory-proposals").waitFor({ timeout: 20_000 });

    await page.goto("/settings#memory");
    const section = memorySection(page);
    expect(await section.getByTestId("memory-workspace").textContent()).toBe(
      "Memory of your personal workspace: runs in this workspace use it, and other workspaces do not see it.",
    );
    const items = section.getByTestId("memory-item");
    // Settings loads every section at once: on a busy machine the list takes a few seconds.
    await expect.poll(() => items.count(), { timeout: 15_000 }).toBe(2);
    // The second run's proposal, left undecided on its card, waits here too.
    const pending = section.getByTestId("memory-pending");
    await pending.getByText("Waiting for your approval (1)").waitFor();
    expect(await pending.textContent()).toContain("You asked the team about");
    expect((await items.allTextContents()).join("\n")).not.toContain("You asked the team");

    await section.getByLabel("Search memories").fill("postg");
    await expect.poll(() => items.count()).toBe(1);
    expect(await items.first().textContent()).toContain("You use PostgreSQL 17 for storage.");

    await section.getByRole("button", { name: "Edit: You use PostgreSQL 17 for storage." }).click();
    await section.getByLabel("Memory text").fill("You use PostgreSQL 17 on a managed host.");
    await section.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "Memory updated");
    await expect
      .poll(() => items.first().textContent())
      .toContain("You use PostgreSQL 17 on a managed host.");

    await section.getByLabel("Search memories").fill("");
    await expect.poll(() => items.count()).toBe(2);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, "memory-settings", false);

    await section
      .getByRole("button", { name: "Delete: You prefer TypeScript with strict types." })
      .click();
    await expectToast(page, "Memory deleted");
    await expect.poll(() => items.count()).toBe(1);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      section.getByRole("link", { name: "Export" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("cohort-memories.json");
    const exported = ZMemoryExport.parse(JSON.parse(readFileSync(await download.path(), "utf8")));
    expect(exported.memories.map((m) => m.status).sort()).toEqual([
      "approved",
      "proposed",
      "rejected",
    ]);

    await section.getByRole("button", { name: "Delete all" }).click();
    await section.getByRole("button", { name: "Delete all memories" }).click();
    await expectToast(page, "3 memories deleted");
    await section.getByText("No memories yet.", { exact: false }).waitFor();
    expectNoErrors();
    await close();
  });

  it("names the team workspace whose memory Settings shows", async () => {
    const { user, page, expectNoErrors, close } = await userOn("pro+");
    const team = `Bakery team ${Date.now()}`;
    await call("POST", "/api/workspaces", user.token, { name: team });
    await switchToWorkspace(page, team);
    await page.goto("/settings#memory");
    const section = memorySection(page);
    await expect
      .poll(() => section.getByTestId("memory-workspace").textContent())
      .toBe(
        `Memory of the ${team} workspace: runs in this workspace use it, and other workspaces do not see it.`,
      );
    expectNoErrors();
    await close();
  });
});
