import type { TSession } from "@cohort/contracts";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, signInContext } from "./support/accounts";
import { api, uploadReadyText } from "./support/api";
import { axeViolations } from "./support/axe";
import { launchBrowser, openPage, screenshot } from "./support/browser";

/**
 * Approvals in the browser (decision 059): a session that asks before every
 * tool call, with a document attached, so the simulator's lane calls the built-in
 * search_documents and waits. The card is approved with the keyboard after a reload in the
 * middle of the pause; a second run's call is denied; the lane's tool rows say what happened;
 * after a reload both runs show their answered cards (decision 076).
 */
const RUN_TIMEOUT = 90_000;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function send(page: Page, text: string): Promise<Locator> {
  const box = page.getByRole("textbox", { name: "Message" });
  await expect.poll(() => box.isEnabled(), { timeout: RUN_TIMEOUT }).toBe(true);
  const runs = await page.getByTestId("run").count();
  await box.fill(text);
  await box.press("Enter");
  await expect.poll(() => page.getByTestId("run").count(), { timeout: 10_000 }).toBe(runs + 1);
  const id = await page.getByTestId("run").last().getAttribute("data-run-id");
  return page.locator(`[data-testid="run"][data-run-id="${id}"]`);
}

const TASK = "According to the attached document, when does the bakery open on Mondays?";

describe("approving a tool call in its lane", () => {
  it(
    "shows the card, survives a reload mid-pause, approves with the keyboard; a second run's call is denied",
    async () => {
      const user = await createUser();
      const documentId = await uploadReadyText(
        user,
        "bakery-hours.txt",
        "The bakery opens on Mondays at seven in the morning. On Sundays the bakery stays closed.",
      );
      const { session } = await api<{ session: TSession }>("POST", "/api/sessions", user.token, {
        title: "Bakery hours",
        tools: { policy: "ask_all", roles: {} },
      });
      await api("PUT", `/api/sessions/${session.id}/documents`, user.token, {
        document_ids: [documentId],
      });

      const { page, expectNoErrors, close } = await openPage(browser, {
        viewport: { width: 1280, height: 900 },
      });
      await signInContext(page.context(), user.token);
      await page.goto(`/chat/${session.id}`);
      await page.getByRole("heading", { level: 1, name: "Bakery hours" }).waitFor();

      const run = await send(page, TASK);
      const card = run.getByTestId("approval-card").first();
      await card.waitFor({ timeout: RUN_TIMEOUT });
      await expect.poll(() => card.getAttribute("data-status")).toBe("pending");
      await expect
        .poll(() => card.getByRole("heading").textContent())
        .toBe("Approve Search documents?");
      await expect
        .poll(() => page.getByTestId("run-announcer").textContent())
        .toContain(
          "asks to call Search documents (search_documents). Approve or deny it in its lane.",
        );
      const row = run.locator('[data-testid="tool-call"][data-tool="search_documents"]').first();
      await expect.poll(() => row.getAttribute("data-status")).toBe("awaiting_approval");
      await screenshot(page, "tool-approval-card-documents", false);

      // The page goes away in the middle of the pause and comes back: the card is still there.
      await page.reload();
      await page.getByRole("heading", { level: 1, name: "Bakery hours" }).waitFor();
      const again = page.getByTestId("approval-card").first();
      await again.waitFor({ timeout: 30_000 });
      await expect.poll(() => again.getAttribute("data-status")).toBe("pending");
      await expect(again.getByLabel("Arguments (JSON, editable)").inputValue()).resolves.toContain(
        '"query"',
      );

      // The card and the waiting row: no axe violation (WCAG 2.1 A/AA).
      expect(
        await axeViolations(page, ['[data-testid="approval-card"]', '[data-testid="tool-call"]']),
      ).toEqual([]);

      // Keyboard only: focus Approve and press Enter.
      await again.getByRole("button", { name: "Approve", exact: true }).focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => again.getAttribute("data-status")).toBe("approved");
      const outcome = again.getByTestId("approval-outcome");
      await expect.poll(() => outcome.textContent()).toMatch(/^Approved by .+\.$/);
      await expect
        .poll(() => outcome.evaluate((node) => node === document.activeElement))
        .toBe(true);

      const lastRun = page.getByTestId("run").last();
      await expect
        .poll(() => lastRun.getAttribute("data-status"), { timeout: RUN_TIMEOUT })
        .toBe("completed");
      const done = lastRun
        .locator('[data-testid="tool-call"][data-tool="search_documents"]')
        .last();
      await expect.poll(() => done.getAttribute("data-status")).toBe("completed");
      // The row opens with the keyboard and shows what the tool returned.
      const toggle = done.getByRole("button", { name: /Search documents/ });
      await toggle.focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("true");
      await expect
        .poll(() => done.getByTestId("tool-call-output").textContent())
        .toContain("opens on Mondays");
      expect(
        await axeViolations(page, ['[data-testid="tool-call"]', '[data-testid="approval-card"]']),
      ).toEqual([]);
      await screenshot(page, "tool-call-row-documents", false);

      // A second run: the call is denied; the lane says so and the run still answers.
      const second = await send(page, TASK);
      const secondCard = second.getByTestId("approval-card").first();
      await secondCard.waitFor({ timeout: RUN_TIMEOUT });
      await secondCard.getByRole("button", { name: "Deny", exact: true }).click();
      await expect.poll(() => secondCard.getAttribute("data-status")).toBe("denied");
      await expect
        .poll(() => secondCard.getByTestId("approval-outcome").textContent())
        .toMatch(/^Denied by .+: the tool was not called\.$/);
      await expect
        .poll(() => second.getAttribute("data-status"), { timeout: RUN_TIMEOUT })
        .toBe("completed");
      const deniedRow = second
        .locator('[data-testid="tool-call"][data-tool="search_documents"]')
        .last();
      await expect.poll(() => deniedRow.getAttribute("data-status")).toBe("denied");

      // Both runs are over: a reload builds them from the stored runs, and each answered
      // request is still its card, answered, with who and when (decision 076), not pending.
      await page.reload();
      await page.getByRole("heading", { level: 1, name: "Bakery hours" }).waitFor();
      const cards = page.getByTestId("approval-card");
      await expect.poll(() => cards.count(), { timeout: 30_000 }).toBe(2);
      const [approvedCard, deniedCard] = [cards.nth(0), cards.nth(1)];
      expect(await approvedCard.getAttribute("data-status")).toBe("approved");
      expect(await approvedCard.getByTestId("approval-outcome").textContent()).toMatch(
        /^Approved by .+\.$/,
      );
      expect(await deniedCard.getAttribute("data-status")).toBe("denied");
      expect(await deniedCard.getByTestId("approval-outcome").textContent()).toMatch(
        /^Denied by .+: the tool was not called\.$/,
      );
      for (const answered of [approvedCard, deniedCard]) {
        expect(await answered.getByTestId("approval-decided-at").textContent()).toMatch(
          /^Answered at \d{1,2}:\d{2}/,
        );
        expect(await answered.getByRole("button").count()).toBe(0);
      }
      // An answered card asks nothing: it does not take the focus on load.
      expect(
        await page.evaluate(() =>
          Boolean(document.activeElement?.closest('[data-testid="approval-card"]')),
        ),
      ).toBe(false);
      expect(await axeViolations(page, ['[data-testid="approval-card"]'])).toEqual([]);

      expectNoErrors();
      await close();
    },
    RUN_TIMEOUT * 4,
  );
});
