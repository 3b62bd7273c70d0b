import type { TSubscriptionTier, TUserResponse } from "@cohort/contracts";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, createUser, signInContext, type TestUser } from "./support/accounts";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";
import { horizontalOverflow } from "./support/ui";

/**
 * CoChat in a real browser against the built server, whose models all answer from the
 * built-in simulator (no provider keys): a pro user — tier granted through the admin API —
 * chats, watches the answer stream in, stops one, finds the conversation again; a free user
 * sees the locked state and the way to unlock it.
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
  const granted = await api<TUserResponse>(
    "PUT",
    `/api/admin/users/${profile.id}/tier`,
    await adminToken(),
    { tier },
  );
  expect(granted.user.subscription_tier).toBe(tier);
}

function lastAnswer(page: Page) {
  return page.getByTestId("cochat-answer").last();
}

async function answerLength(page: Page): Promise<number> {
  const text = await lastAnswer(page).getByTestId("cochat-answer-body").textContent();
  return (text ?? "").length;
}

async function answerStatus(page: Page): Promise<string | null> {
  return lastAnswer(page).getAttribute("data-status");
}

describe("CoChat", () => {
  it("lets a pro user chat: streamed Markdown answers, Stop, saved conversations", async () => {
    const user = await createUser({ firstName: "Grace", lastName: "Pro" });
    await grantTier(user, "pro");
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 900 },
    });
    await signInContext(page.context(), user.token);
    await page.goto("/cochat");
    await page.getByRole("heading", { level: 1, name: /CoChat/ }).waitFor();
    const main = page.locator("main");
    expect(await main.getByText("CoChat Unlimited", { exact: true }).count()).toBe(1);

    // The picker lists CoChat's own models, each labelled Simulated (no provider keys here).
    const picker = page.getByLabel("Model");
    expect(await picker.inputValue()).toBe("cochat");
    const options = await picker.locator("option").allTextContents();
    expect(options[0]).toBe("CoChat (Simulated)");
    expect(options.every((o) => o.endsWith("(Simulated)"))).toBe(true);
    expect(await main.getByTestId("simulated-badge").first().isVisible()).toBe(true);

    // Advanced holds the spec's defaults.
    await page.getByText("Advanced", { exact: true }).click();
    expect(await page.getByLabel("Temperature").inputValue()).toBe("0.7");
    expect(await page.getByLabel("Max tokens").inputValue()).toBe("2048");
    await page.getByText("Advanced", { exact: true }).click();

    // Ask for code: the answer streams in piece by piece, as Markdown with a highlighted,
    // copyable code block.
    const box = page.getByLabel("Message CoChat");
    await box.fill("Write a TypeScript function that checks whether a word is a palindrome");
    await box.press("Enter");
    await page.getByRole("button", { name: "Stop" }).waitFor();
    const answer = lastAnswer(page);
    await expect.poll(() => answerLength(page)).toBeGreaterThan(40);
    const early = await answerLength(page);
    await expect.poll(() => answerLength(page)).toBeGreaterThan(early + 40);
    await expect.poll(() => answerStatus(page), { timeout: 30_000 }).toBe("complete");
    expect(await answer.locator("pre code").count()).toBeGreaterThan(0);
    expect(await answer.getByRole("button", { name: "Copy" }).first().isVisible()).toBe(true);
    expect(await answer.getByTestId("simulated-badge").count()).toBe(1);
    expect(await answer.getByTestId("cochat-not-charged").textContent()).toBe(
      "Simulated — not charged",
    );
    expect(await page.getByRole("button", { name: "Send" }).isVisible()).toBe(true);

    // The conversation is in the list and in the address, and survives a reload.
    const list = page.getByRole("list", { name: "Your conversations" });
    await list.getByText("Write a TypeScript function that checks whether").waitFor();
    expect(new URL(page.url()).searchParams.get("c")).toMatch(/^cochat-\d+$/);
    await page.reload();
    await lastAnswer(page).waitFor();
    expect(await page.getByTestId("cochat-question").count()).toBe(1);
    expect(await answerStatus(page)).toBe("complete");
    await page
      .getByTestId("cochat-question")
      .first()
      .evaluate((element) => {
        element.scrollIntoView({ block: "start" });
      });
    await screenshot(page, "cochat", false);

    // Stop ends an answer mid-stream; what arrived stays, marked as stopped.
    await box.fill("Tell me about gardening in a small city flat");
    await box.press("Enter");
    await expect.poll(() => answerLength(page)).toBeGreaterThan(20);
    await page.getByRole("button", { name: "Stop" }).click();
    await expect.poll(() => answerStatus(page)).toBe("stopped");
    await lastAnswer(page).getByText("Stopped. The answer above is incomplete.").waitFor();
    expect(await page.getByTestId("cochat-question").count()).toBe(2);

    // A new chat starts empty; the old one is one click away, and can be deleted.
    await page.getByRole("button", { name: "New chat" }).click();
    await page.getByRole("heading", { name: "What's on your mind?" }).waitFor();
    expect(new URL(page.url()).searchParams.get("c")).toBeNull();
    await list.getByRole("button", { name: /^Write a TypeScript function/ }).click();
    await expect.poll(() => page.getByTestId("cochat-question").count()).toBe(2);
    await list.getByRole("button", { name: /^Delete conversation: Write a TypeScript/ }).click();
    await list.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("heading", { name: "What's on your mind?" }).waitFor();
    await expect.poll(() => list.locator("li").count()).toBe(0);

    expectNoErrors();
    await close();
  });

  it("shows the locked state to a free user, with the way to unlock it", async () => {
    const user = await createUser({ firstName: "Frank", lastName: "Free" });
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 900 },
    });
    await signInContext(page.context(), user.token);
    await page.goto("/cochat");
    const main = page.locator("main");
    await main.getByRole("heading", { level: 1, name: "CoChat Locked" }).waitFor();
    expect(await main.getByLabel("Message CoChat").count()).toBe(0);
    expect(await main.getByText("Pro", { exact: true }).count()).toBe(1);
    await screenshot(page, "cochat-locked", false);
    await main.getByRole("link", { name: "Upgrade to unlock CoChat" }).click();
    await page.waitForURL("**/pricing");
    expectNoErrors();
    await close();
  });

  it("fits a phone screen, with the conversations in a drawer", async () => {
    const user = await createUser();
    await grantTier(user, "enterprise");
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 360, height: 780 },
    });
    await signInContext(page.context(), user.token);
    await page.goto("/cochat");
    const box = page.getByLabel("Message CoChat");
    await box.fill("How do I keep a sourdough starter alive?");
    await box.press("Enter");
    await expect.poll(() => answerStatus(page), { timeout: 30_000 }).toBe("complete");
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, "cochat-mobile", false);
    await page.getByRole("button", { name: "Open conversations" }).click();
    await page.getByRole("dialog", { name: "Conversations" }).getByText("New chat").waitFor();
    expectNoErrors();
    await close();
  });
});
