import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handmadeExport } from "../test-support/export-fixtures";
import { createUser, signInContext } from "./support/accounts";
import { uploadReadyText } from "./support/api";
import { axeViolations } from "./support/axe";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";

/**
 * Share links in a real browser: the owner makes a link in the Share dialog, a signed-out
 * browser opens it (no app shell, no costs, not indexed, live), the owner revokes it and
 * the viewer's page turns into the not-found state.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const desktop = { viewport: { width: 1360, height: 960 } };
const RUN_TIMEOUT = 90_000;

async function call<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseURL()}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** A session with one completed run of the Coder and the Critic, made through the API. */
async function sessionWithRun(token: string): Promise<string> {
  const { session } = await call<{ session: { id: string } }>(token, "POST", "/api/sessions", {
    title: "Launch plan",
    manual_agent_selection: true,
    agent_preferences: {
      coder: { enabled: true, model: "cologic" },
      critic: { enabled: true, model: "coreason" },
    },
  });
  await call(token, "POST", "/api/ai/chat", {
    session_id: session.id,
    message: "Plan the launch of our app.",
  });
  await expect
    .poll(
      async () => {
        const detail = await call<{ runs: { status: string }[] }>(
          token,
          "GET",
          `/api/sessions/${session.id}`,
        );
        return detail.runs[0]?.status;
      },
      { timeout: RUN_TIMEOUT, interval: 250 },
    )
    .toBe("completed");
  return session.id;
}

describe("share links", () => {
  it("opens a link signed out without the shell or costs, and shows not-found once revoked", async () => {
    const owner = await createUser({ firstName: "Grace", lastName: "Hopper" });
    const sessionId = await sessionWithRun(owner.token);

    const ownerPage = await openPage(browser, desktop);
    await signInContext(ownerPage.page.context(), owner.token);
    const { page } = ownerPage;
    await page.goto(`/chat/${sessionId}`);
    await page.getByRole("heading", { level: 1, name: "Launch plan" }).waitFor();
    await page.getByRole("button", { name: "Session actions" }).click();
    await page.getByRole("menuitem", { name: "Share…" }).click();
    const dialog = page.getByRole("dialog", { name: "Share read-only" });
    await dialog.waitFor();
    await expect.poll(() => dialog.getByLabel("What to share").locator("option").count()).toBe(2);
    await dialog.getByLabel("Link expires").selectOption({ label: "After 7 days" });
    await dialog.getByRole("checkbox", { name: "Live" }).check();
    await dialog.getByRole("button", { name: "Create link" }).click();
    const linkBox = dialog.getByRole("textbox", { name: "Your link is ready" });
    await linkBox.waitFor();
    const link = await linkBox.inputValue();
    expect(link).toMatch(/\/share\/[A-Za-z0-9_-]{43}$/);
    await expect.poll(() => dialog.getByTestId("share-link").count()).toBe(1);
    await screenshot(page, "share-dialog", false);

    // A stranger's browser: no sign-in cookie at all.
    const viewer = await openPage(browser, desktop);
    const shared = viewer.page;
    await shared.goto(new URL(link).pathname);
    await shared.getByTestId("shared-page").waitFor();
    await expect
      .poll(() => shared.getByTestId("share-banner").textContent())
      .toContain("Shared read-only from Cohort");
    await shared.getByTestId("share-live").waitFor();
    await shared.getByRole("heading", { level: 1, name: "Launch plan" }).waitFor();
    await shared.getByText("Plan the launch of our app.").waitFor();
    await shared.locator('[data-testid="run"][data-status="completed"]').waitFor();
    // No app shell: no sidebar navigation, no composer.
    expect(await shared.locator('nav[aria-label="App"]').count()).toBe(0);
    expect(await shared.getByRole("textbox", { name: "Message" }).count()).toBe(0);
    // No costs anywhere on the page, and no way to change anything.
    const text = (await shared.locator("body").allInnerTexts()).join("\n").toLowerCase();
    expect(text).not.toContain("credit");
    expect(text).not.toContain(owner.email);
    expect(await shared.getByRole("button", { name: "Regenerate" }).count()).toBe(0);
    expect(await shared.locator('meta[name="robots"][content="noindex"]').count()).toBeGreaterThan(
      0,
    );
    await screenshot(shared, "share-page");

    // Live: a run the owner starts now streams into the open page, no reload.
    await call(owner.token, "POST", "/api/ai/chat", {
      session_id: sessionId,
      message: "Now write the announcement.",
    });
    await shared.getByText("Now write the announcement.").waitFor({ timeout: 15_000 });
    await expect
      .poll(() => shared.locator('[data-testid="run"][data-status="completed"]').count(), {
        timeout: RUN_TIMEOUT,
        interval: 250,
      })
      .toBe(2);
    expect((await shared.locator("body").allInnerTexts()).join("\n").toLowerCase()).not.toContain(
      "credit",
    );

    // Revoked: the live page learns it from its stream and shows the not-found state.
    await dialog.getByRole("button", { name: "Revoke" }).click();
    await expect
      .poll(() => dialog.getByTestId("share-link").getAttribute("data-status"))
      .toBe("revoked");
    await shared.getByTestId("share-not-found").waitFor({ timeout: 15_000 });
    await shared.getByRole("heading", { name: "This link does not work" }).waitFor();
    await screenshot(shared, "share-revoked", false);
    // And so does opening it again.
    await shared.reload();
    await shared.getByTestId("share-not-found").waitFor();

    ownerPage.expectNoErrors();
    viewer.expectNoErrors([/status of 404/]);
    await viewer.close();
    await ownerPage.close();
  }, 240_000);

  it("shows remote images of a shared answer as links, and ends with a quiet link to Cohort", async () => {
    const owner = await createUser({ firstName: "Ada", lastName: "Byron" });
    const imported = await call<{ session_id: string }>(
      owner.token,
      "POST",
      "/api/sessions/import",
      handmadeExport({
        title: "Pixel test",
        answer:
          "Here is the chart:\n\n![Sales chart](https://tracker.example/pixel.png?u=1)\n\nThe end.",
      }),
    );
    const { url } = await call<{ url: string }>(
      owner.token,
      "POST",
      `/api/sessions/${imported.session_id}/shares`,
      {},
    );

    const viewer = await openPage(browser, desktop);
    const { page } = viewer;
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    const response = await page.goto(new URL(url).pathname);
    // The page's policy refuses images from other hosts, whatever a renderer does.
    const csp = (await response?.headerValue("content-security-policy")) ?? "";
    expect(csp).toContain("img-src 'self' data: blob:;");
    expect(csp).not.toMatch(/img-src[^;]*https:/);
    await page.getByTestId("shared-page").waitFor();
    await page.getByText("The end.").waitFor();
    const blocked = page.getByTestId("blocked-image");
    await expect.poll(() => blocked.textContent()).toBe("Image: Sales chart (tracker.example)");
    expect(await blocked.getAttribute("href")).toBe("https://tracker.example/pixel.png?u=1");
    expect(await page.locator('img[src*="tracker.example"]').count()).toBe(0);
    expect(requested.some((u) => u.includes("tracker.example"))).toBe(false);

    const madeWith = page.getByTestId("share-made-with");
    expect(await madeWith.textContent()).toBe("Made with Cohort — try it");
    expect(await madeWith.getAttribute("href")).toBe("/");
    await screenshot(page, "share-remote-image");
    viewer.expectNoErrors();
    await viewer.close();
  }, 120_000);

  it("shows a finished run's tool calls and answered approval, without their arguments or output (decision 076)", async () => {
    const owner = await createUser({ firstName: "Ada", lastName: "Byron" });
    const documentId = await uploadReadyText(
      owner,
      "bakery-hours.txt",
      "The bakery opens on Mondays at seven in the morning.",
    );
    const { session } = await call<{ session: { id: string } }>(
      owner.token,
      "POST",
      "/api/sessions",
      { title: "Bakery hours", tools: { policy: "ask_all", roles: {} } },
    );
    await call(owner.token, "PUT", `/api/sessions/${session.id}/documents`, {
      document_ids: [documentId],
    });
    // A live link, opened before the run: its viewer watches the lane ask.
    const { url } = await call<{ url: string }>(
      owner.token,
      "POST",
      `/api/sessions/${session.id}/shares`,
      { live: true },
    );
    const viewer = await openPage(browser, desktop);
    const { page } = viewer;
    await page.goto(new URL(url).pathname);
    await page.getByTestId("shared-page").waitFor();
    await call(owner.token, "POST", "/api/ai/chat", {
      session_id: session.id,
      message: "According to the attached document, when does the bakery open on Mondays?",
    });
    // The lane asks; the owner approves with arguments of their own, which a link never shows.
    let approvalId = "";
    await expect
      .poll(
        async () => {
          const { approvals } = await call<{ approvals: { id: string; status: string }[] }>(
            owner.token,
            "GET",
            `/api/sessions/${session.id}/approvals`,
          );
          approvalId = approvals.find((a) => a.status === "pending")?.id ?? "";
          return approvalId;
        },
        { timeout: RUN_TIMEOUT, interval: 250 },
      )
      .not.toBe("");
    // The live link, open while the lane waits, shows the card without the arguments.
    const waiting = page.locator('[data-testid="approval-card"][data-status="pending"]').first();
    await waiting.waitFor();
    expect(await waiting.getByTestId("approval-args-withheld").textContent()).toBe(
      "Arguments not shared.",
    );
    expect(await waiting.locator("textarea").count()).toBe(0);
    expect(await waiting.getByRole("button").count()).toBe(0);

    await call(owner.token, "POST", `/api/sessions/${session.id}/approvals/${approvalId}`, {
      decision: "approve",
      args: { query: "Monday opening zebra-7" },
    });
    await expect
      .poll(
        async () =>
          (
            await call<{ runs: { status: string }[] }>(
              owner.token,
              "GET",
              `/api/sessions/${session.id}`,
            )
          ).runs[0]?.status,
        { timeout: RUN_TIMEOUT, interval: 250 },
      )
      .toBe("completed");
    await page.reload();
    await page.getByTestId("shared-page").waitFor();
    const row = page.locator('[data-testid="tool-call"][data-tool="search_documents"]').first();
    await row.waitFor();
    expect(await row.getAttribute("data-status")).toBe("completed");
    expect(await row.getByTestId("tool-call-args").textContent()).toBe(
      "Arguments and output not shared.",
    );
    // Costs are not shared: the row names no price.
    const facts = (await row.getByTestId("tool-call-facts").textContent()) ?? "";
    expect(facts).toMatch(/^built-in · Reads · .+ characters?$/);
    expect(facts).not.toMatch(/free|credit/);
    const card = page.getByTestId("approval-card").first();
    expect(await card.getAttribute("data-status")).toBe("approved");
    expect(await card.getByTestId("approval-outcome").textContent()).toBe("Approved by a member.");
    expect(await page.getByText("zebra-7").count()).toBe(0);
    expect(await page.content()).not.toContain("zebra-7");
    expect(
      await axeViolations(page, ['[data-testid="tool-call"]', '[data-testid="approval-card"]']),
    ).toEqual([]);
    viewer.expectNoErrors();
    await viewer.close();
  }, 180_000);
});
