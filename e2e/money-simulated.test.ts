import {
  SIMULATED_NOT_CHARGED,
  type TSessionResponse,
  type TUserResponse,
} from "@cohort/contracts";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, signInContext, type TestUser } from "./support/accounts";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";
import { useOwnServer } from "./support/own-server";

/**
 * The built-in simulator's answers are free by default (decision 053): a server of its own
 * without SIMULATOR_CHARGES (the suite's server charges them, to test money). The composer
 * says the run will not be charged and what it would cost; every lane and the run's total say
 * "Simulated — not charged"; the balance does not move.
 */
useOwnServer({ SIMULATOR_CHARGES: "0" });

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const RUN_TIMEOUT = 90_000;

async function api<T>(method: string, path: string, user: TestUser, body?: unknown): Promise<T> {
  const response = await fetch(`${baseURL()}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${user.token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.ok).toBe(true);
  return (await response.json()) as T;
}

describe("simulated answers", () => {
  it("are free: the preview, the lanes and the total say so, and the balance stays", async () => {
    const user = await createUser({ firstName: "Sim", lastName: "Ulated" });
    const { session } = await api<TSessionResponse>("POST", "/api/sessions", user, {
      title: "Free drafts",
      manual_agent_selection: true,
      agent_preferences: { coder: { enabled: true }, critic: { enabled: true } },
    });
    const before = (await api<TUserResponse>("GET", "/api/users/profile", user)).user;
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1360, height: 960 },
    });
    await signInContext(page.context(), user.token);
    await page.goto(`/chat/${session.id}`);

    const estimate = page.getByTestId("cost-estimate");
    await estimate.waitFor();
    expect(await estimate.getAttribute("data-free")).toBe("true");
    expect(await estimate.textContent()).toMatch(
      /^Simulated — not charged \(would be (about )?\d+\.\d\d(–\d+\.\d\d)? credits?\)$/,
    );

    const box = page.getByRole("textbox", { name: "Message" });
    await expect.poll(() => box.isEnabled()).toBe(true);
    await box.fill("Write a CSV parser");
    await box.press("Enter");
    const run = page.getByTestId("run").last();
    await run.waitFor();
    await expect
      .poll(() => run.getAttribute("data-status"), { timeout: RUN_TIMEOUT, interval: 100 })
      .toBe("completed");
    const usages = await run
      .locator('[data-testid="agent-lane"]')
      .getByTestId("lane-usage")
      .allTextContents();
    expect(usages.length).toBeGreaterThan(0);
    for (const usage of usages) {
      expect(usage).toMatch(
        new RegExp(`· ${SIMULATED_NOT_CHARGED} \\(would be \\d+\\.\\d\\d credits?\\)`),
      );
    }
    expect(await run.getByTestId("run-total").textContent()).toContain("Total: 0.00 credits");
    expect(await run.getByTestId("run-simulated").textContent()).toMatch(
      new RegExp(`^${SIMULATED_NOT_CHARGED}`),
    );
    await run.getByTestId("run-total").scrollIntoViewIfNeeded();
    await screenshot(page, "chat-simulated-free", false);
    const after = (await api<TUserResponse>("GET", "/api/users/profile", user)).user;
    expect(after.credits_remaining).toBe(before.credits_remaining);
    expectNoErrors();
    await close();
  });
});
