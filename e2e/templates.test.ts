import type { TSession, TSubscriptionTier, TTemplateList, TUserProfile } from "@cohort/contracts";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, createUser, signInContext, type TestUser } from "./support/accounts";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";
import { expectToast } from "./support/ui";

/**
 * Saved setups in a real browser (decision 042): a Pro+ user saves a session's setup (manual
 * team, a role's instructions, budget) from the session's menu, starts a new session from it
 * in the New session dialog, and finds it in Settings → Templates; a Pro user sees where to
 * upgrade instead of a button the server would refuse.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const desktop = { viewport: { width: 1280, height: 900 } };
const INSTRUCTIONS = "Write every example in Rust.";

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

async function userOn(tier: TSubscriptionTier) {
  const user: TestUser = await createUser();
  const { user: profile } = await call<{ user: TUserProfile }>(
    "GET",
    "/api/users/profile",
    user.token,
  );
  if (tier !== "free") {
    await call("PUT", `/api/admin/users/${profile.id}/tier`, await adminToken(), { tier });
  }
  const guarded = await openPage(browser, desktop);
  await signInContext(guarded.page.context(), user.token);
  return { user, ...guarded };
}

async function openSessionMenu(page: Page, session: TSession) {
  await page.goto(`/chat/${session.id}`);
  await page.getByRole("heading", { level: 1, name: session.title }).waitFor();
  await page.getByRole("button", { name: "Session actions" }).click();
}

describe("templates", () => {
  it("saves a session as a template and starts a new session from it", async () => {
    const { user, page, expectNoErrors, close } = await userOn("pro+");
    const { session } = await call<{ session: TSession }>("POST", "/api/sessions", user.token, {
      title: "Rust parser",
      manual_agent_selection: true,
      agent_preferences: {
        strategist: { enabled: false },
        coder: { enabled: true, instructions: INSTRUCTIONS },
        designer: { enabled: false },
        critic: { enabled: true },
      },
      budget_credits: 7.5,
      review_plan: true,
    });

    await openSessionMenu(page, session);
    await page.getByRole("menuitem", { name: "Save as template…" }).click();
    const save = page.getByRole("dialog", { name: "Save as template" });
    await save.waitFor();
    expect(await save.getByLabel("Name").inputValue()).toBe("Rust parser");
    await save.getByLabel("Name").fill("Rust crew");
    await save.getByLabel("Description (optional)").fill("A coder who writes Rust, and a critic");
    await screenshot(page, "templates-save-dialog", false);
    await save.getByRole("button", { name: "Save template" }).click();
    await expectToast(page, "Template “Rust crew” saved");
    await save.waitFor({ state: "detached" });

    await page.goto("/chat");
    await page.getByRole("button", { name: "New session" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New session" });
    const picker = dialog.getByLabel("Start from a template (optional)");
    await picker.waitFor();
    await picker.selectOption({ label: "Rust crew" });
    expect(await dialog.getByLabel("Manual").isChecked()).toBe(true);
    expect(await dialog.getByRole("checkbox", { name: "Strategist" }).isChecked()).toBe(false);
    expect(await dialog.getByRole("checkbox", { name: "Coder" }).isChecked()).toBe(true);
    expect(await dialog.getByLabel("Coder instructions").inputValue()).toBe(INSTRUCTIONS);
    expect(await dialog.getByLabel("Credit budget (optional)").inputValue()).toBe("7.5");
    // The template says "Review the plan first" (decision 069), so the new session does too.
    expect(await dialog.getByRole("checkbox", { name: "Review the plan first" }).isChecked()).toBe(
      true,
    );
    await dialog.getByLabel("Title", { exact: true }).fill("Rust parser, take two");
    await screenshot(page, "templates-new-session-from-template", false);
    await dialog.getByTestId("role-coder").scrollIntoViewIfNeeded();
    await screenshot(page, "templates-new-session-instructions", false);
    await dialog.getByRole("button", { name: "Create session" }).click();
    await page.waitForURL(/\/chat\/[\w-]+$/);
    await page.getByRole("heading", { level: 1, name: "Rust parser, take two" }).waitFor();
    expect(await page.getByTestId("session-review-plan").textContent()).toBe("Plan reviewed first");

    const id = new URL(page.url()).pathname.split("/").pop() as string;
    const { session: started } = await call<{ session: TSession }>(
      "GET",
      `/api/sessions/${id}`,
      user.token,
    );
    expect(started).toMatchObject({
      manual_agent_selection: true,
      budget_credits: 7.5,
      agent_preferences: {
        strategist: { enabled: false, model: null, instructions: "" },
        coder: { enabled: true, model: null, instructions: INSTRUCTIONS },
        designer: { enabled: false, model: null, instructions: "" },
        critic: { enabled: true, model: null, instructions: "" },
      },
    });

    // The session's edit dialog changes a role's instructions.
    await page.getByRole("button", { name: "Session actions" }).click();
    await page.getByRole("menuitem", { name: "Edit details…" }).click();
    const edit = page.getByRole("dialog", { name: "Edit session" });
    const coder = edit.getByLabel("Coder instructions");
    expect(await coder.inputValue()).toBe(INSTRUCTIONS);
    expect(await edit.getByLabel("Strategist instructions").count()).toBe(0);
    await coder.fill("Write every example in Rust 2024.");
    await screenshot(page, "templates-edit-instructions", false);
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.waitFor({ state: "detached" });
    const { session: edited } = await call<{ session: TSession }>(
      "GET",
      `/api/sessions/${id}`,
      user.token,
    );
    expect(edited.agent_preferences?.coder?.instructions).toBe("Write every example in Rust 2024.");
    expect(edited.agent_preferences?.strategist).toEqual({
      enabled: false,
      model: null,
      instructions: "",
    });

    // Settings → Templates lists it, and renames it.
    await page.goto("/settings");
    const section = page.getByRole("region", { name: "Templates" });
    const row = section.getByTestId("template-row");
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain("Rust crew");
    await row.getByRole("button", { name: "Rename" }).click();
    await row.getByLabel("New name for Rust crew").fill("Rust crew, tidied");
    await row.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => row.textContent()).toContain("Rust crew, tidied");
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, "templates-settings", false);
    const { templates } = await call<TTemplateList>("GET", "/api/templates", user.token);
    expect(templates.map((t) => t.name)).toEqual(["Rust crew, tidied"]);
    expectNoErrors();
    await close();
  });

  it("shows a Pro user where to upgrade instead of saving", async () => {
    const { user, page, expectNoErrors, close } = await userOn("pro");
    const { session } = await call<{ session: TSession }>("POST", "/api/sessions", user.token, {
      title: "Locked setup",
    });
    await openSessionMenu(page, session);
    await page.getByRole("menuitem", { name: "Save as template…" }).click();
    const save = page.getByRole("dialog", { name: "Save as template" });
    const gate = save.getByTestId("templates-gate");
    await gate.waitFor();
    expect(await gate.textContent()).toContain(
      "Templates are part of the Pro+ and Enterprise plans.",
    );
    expect(
      await gate.getByRole("link", { name: "Upgrade on the Billing page" }).getAttribute("href"),
    ).toBe("/billing");
    expect(await save.getByRole("button", { name: "Save template" }).count()).toBe(0);
    await screenshot(page, "templates-gate-pro", false);
    expectNoErrors();
    await close();
  });
});
