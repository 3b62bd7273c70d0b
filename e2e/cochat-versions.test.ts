import type { TSubscriptionTier, TUserResponse } from "@cohort/contracts";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, createUser, signInContext, type TestUser } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";

/**
 * CoChat's message actions in a real browser (decision 068), on the built server whose models
 * answer from the labelled simulator: regenerate an answer (a ‹ 1/2 › pager on it), edit a
 * question in place (a pager on the question, a new branch below it), page between versions
 * by keyboard, and everything as it was after a reload; rename a conversation; axe on it all.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function api<T>(method: string, path: string, bearer: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseURL()}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

async function grantTier(user: TestUser, tier: TSubscriptionTier): Promise<void> {
  const { user: profile } = await api<TUserResponse>("GET", "/api/users/profile", user.token);
  await api<TUserResponse>("PUT", `/api/admin/users/${profile.id}/tier`, await adminToken(), {
    tier,
  });
}

const answers = (page: Page) => page.getByTestId("cochat-answer");
const questions = (page: Page) => page.getByTestId("cochat-question");

/** Waits until the last answer is complete and its actions (which need its stored id) show. */
async function settled(page: Page, count: number): Promise<void> {
  await expect.poll(() => answers(page).count(), { timeout: 60_000 }).toBe(count);
  await expect
    .poll(() => answers(page).last().getAttribute("data-status"), { timeout: 60_000 })
    .toBe("complete");
  await answers(page).last().getByTestId("cochat-answer-actions").waitFor();
}

const position = (scope: ReturnType<Page["getByTestId"]>) =>
  scope.getByTestId("version-position").textContent();

describe("CoChat versions", () => {
  it("regenerates and edits in place, with pagers that survive a reload", async () => {
    const user = await createUser({ firstName: "Ada", lastName: "Versions" });
    await grantTier(user, "pro");
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 900 },
    });
    await signInContext(page.context(), user.token);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto("/cochat");
    const box = page.getByLabel("Message CoChat");
    await expect.poll(() => box.isEnabled(), { timeout: 60_000 }).toBe(true);
    await box.fill("Plan a picnic for four");
    await box.press("Enter");
    await settled(page, 1);
    await expect.poll(() => box.isEnabled(), { timeout: 60_000 }).toBe(true);
    await box.fill("Make it vegetarian");
    await box.press("Enter");
    await settled(page, 2);
    const firstAnswer =
      (await answers(page).first().getByTestId("cochat-answer-body").textContent()) ?? "";

    // Copy puts the answer on the clipboard.
    await answers(page)
      .first()
      .getByRole("button", { name: "Copy the answer as Markdown" })
      .click();
    await expect
      .poll(() => answers(page).first().getByTestId("copy-status").textContent())
      .toBe("Copied as Markdown");

    // Regenerate the first answer: the turns after it leave the screen, a pager says 2/2.
    await answers(page)
      .first()
      .getByRole("button", { name: /^Regenerate/ })
      .click();
    await settled(page, 1);
    expect(await questions(page).count()).toBe(1);
    const regenerated = answers(page).first();
    expect(await position(regenerated)).toBe("2/2");
    expect(await regenerated.getByTestId("simulated-badge").count()).toBe(1);

    // Back to version 1 by keyboard: its continuation ("Make it vegetarian") comes back.
    const previous = regenerated.getByRole("button", { name: /^Previous version of the answer/ });
    await previous.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => questions(page).count(), { timeout: 30_000 }).toBe(2);
    expect(await position(answers(page).first())).toBe("1/2");
    expect(await answers(page).first().getByTestId("cochat-answer-body").textContent()).toBe(
      firstAnswer,
    );

    // Edit the second question in place, by keyboard: Save sends it as a new version.
    const second = questions(page).nth(1);
    await second.getByRole("button", { name: "Edit your message" }).click();
    const editor = page.getByRole("textbox", { name: "Edit your message" });
    expect(await editor.evaluate((element) => element === document.activeElement)).toBe(true);
    await editor.fill("Make it vegan and gluten-free");
    expect(
      await axeViolations(page, [
        '[data-testid="cochat-edit-form"]',
        'ol[aria-label="Conversation"]',
      ]),
    ).toEqual([]);
    await page.keyboard.press("Control+Enter");
    await settled(page, 2);
    const edited = questions(page).nth(1);
    expect(await edited.textContent()).toContain("Make it vegan and gluten-free");
    expect(await position(edited)).toBe("2/2");
    expect(await axeViolations(page, ['ol[aria-label="Conversation"]'])).toEqual([]);
    await screenshot(page, "cochat-versions");

    // After a reload the same branch is on screen, with both pagers.
    await page.reload();
    await questions(page).nth(1).waitFor();
    expect(await questions(page).nth(1).textContent()).toContain("Make it vegan and gluten-free");
    expect(await position(questions(page).nth(1))).toBe("2/2");
    expect(await position(answers(page).first())).toBe("1/2");
    // Paging the question back shows the first wording and its own answer, also after reload.
    await questions(page)
      .nth(1)
      .getByRole("button", { name: /^Previous version of your message/ })
      .click();
    await expect
      .poll(() => questions(page).nth(1).textContent(), { timeout: 30_000 })
      .toContain("Make it vegetarian");
    await page.reload();
    await questions(page).nth(1).waitFor();
    expect(await questions(page).nth(1).textContent()).toContain("Make it vegetarian");
    expect(await position(questions(page).nth(1))).toBe("1/2");

    // Rename the conversation from the list.
    const list = page.getByRole("complementary", { name: "CoChat conversations" });
    await list.getByRole("button", { name: "Rename conversation: Plan a picnic for four" }).click();
    const name = list.getByRole("textbox", { name: "New name" });
    await name.fill("Picnic plans");
    await name.press("Enter");
    await list.getByRole("button", { name: /^Picnic plans/ }).waitFor();
    expect(await axeViolations(page, ['aside[aria-label="CoChat conversations"]'])).toEqual([]);
    expectNoErrors();
    await close();
  }, 240_000);
});
