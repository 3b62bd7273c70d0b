import type { TSession } from "@cohort/contracts";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, signInContext } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";

/**
 * The evidence-based Critic in a real browser (decisions 062, 068): the simulator's Coder
 * (labelled simulated) writes a Python function and its tests in fenced blocks; the server
 * runs them in the embedded sandbox before the Critic scores, and the verdict card shows the
 * checks that ran — live, after a reload, in the Markdown, JSON and PDF exports and on a
 * shared link.
 */
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const CHECKS = "Ran 4 checks: 4 passed, 0 failed";

async function call(token: string, method: string, path: string, body?: unknown) {
  return fetch(`${baseURL()}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe("the Critic's checks", () => {
  it("shows the checks the Coder's tests ran, after reload, in exports and on a share", async () => {
    const user = await createUser();
    const created = await call(user.token, "POST", "/api/sessions", {
      title: "Palindromes",
      agent_preferences: { coder: { enabled: true }, critic: { enabled: true } },
    });
    expect(created.status).toBe(201);
    const { session } = (await created.json()) as { session: TSession };

    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1360, height: 960 },
    });
    await signInContext(page.context(), user.token);
    await page.goto(`/chat/${session.id}`);
    const box = page.getByRole("textbox", { name: "Message" });
    await expect.poll(() => box.isEnabled()).toBe(true);
    await box.fill("Write a Python function that checks whether a string is a palindrome");
    await box.press("Enter");
    const run = page.getByTestId("run").last();
    await expect
      .poll(() => run.getAttribute("data-status"), { timeout: 120_000 })
      .toBe("completed");

    // The Coder's lane holds the function and its tests, from the labelled simulator.
    const coder = run.locator('[data-testid="agent-lane"]', { hasText: "def test_mixed_case" });
    expect(await coder.count()).toBe(1);
    expect(await coder.getByTestId("simulated-badge").count()).toBe(1);

    const critic = run.getByTestId("critic-verdict");
    expect(await critic.getByTestId("critic-checks").textContent()).toBe(CHECKS);
    expect(await critic.getByTestId("critic-evidence").textContent()).toBe(
      "Score based on evidence: the drafts' code and tests were run.",
    );
    expect(await axeViolations(page, ['[data-testid="critic-verdict"]'])).toEqual([]);
    await screenshot(page, "critic-checks");

    // After a reload the card is built from the stored run: the checks are still there.
    await page.reload();
    const reloaded = page.getByTestId("run").last().getByTestId("critic-verdict");
    await reloaded.waitFor();
    expect(await reloaded.getByTestId("critic-checks").textContent()).toBe(CHECKS);
    expect(await reloaded.getByTestId("critic-evidence").textContent()).toMatch(
      /^Score based on evidence/,
    );

    // Exports carry them.
    const markdown = await (
      await call(user.token, "GET", `/api/sessions/${session.id}/export?format=markdown`)
    ).text();
    expect(markdown).toContain(`**Checks:** ${CHECKS}. Score based on evidence.`);
    const json = (await (
      await call(user.token, "GET", `/api/sessions/${session.id}/export?format=json`)
    ).json()) as {
      runs: { critic_verdicts: { evidence?: string; checks?: { ran: number } }[] }[];
    };
    const verdict = json.runs.at(-1)?.critic_verdicts[0];
    expect(verdict?.evidence).toBe("ran");
    expect(verdict?.checks?.ran).toBe(4);
    const pdf = await call(user.token, "GET", `/api/sessions/${session.id}/export?format=pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toMatch(/^application\/pdf/);

    // A shared link shows the same line.
    const shared = await call(user.token, "POST", `/api/sessions/${session.id}/shares`, {});
    expect(shared.status).toBe(201);
    const { url } = (await shared.json()) as { url: string };
    await page.goto(new URL(url).pathname);
    await page.getByTestId("shared-page").waitFor();
    expect(
      await page.getByTestId("critic-verdict").getByTestId("critic-checks").textContent(),
    ).toBe(CHECKS);
    expectNoErrors();
    await close();
  }, 240_000);
});
