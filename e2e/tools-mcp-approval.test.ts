import type { TSession } from "@cohort/contracts";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NotesServer, startNotesServer } from "../test-support/mcp-notes-server";
import { createUser, signInContext } from "./support/accounts";
import { api } from "./support/api";
import { axeViolations } from "./support/axe";
import { launchBrowser, openPage, screenshot } from "./support/browser";
import { useOwnServer } from "./support/own-server";
import { expectToast } from "./support/ui";

/**
 * The team acts through a real MCP server (decisions 059, 060, 066): the test starts a notes
 * server built with the SDK, the user connects it in Settings, gives it to the Coder in the
 * new-session dialog, and the simulator's Coder calls its write tool (`create_note`: its
 * words are in the task). The call waits for approval; the page is reloaded in the middle of
 * the pause and the card is approved with the keyboard; the note really lands on the server
 * and the lane shows the result, also after a reload of the finished run. A second run's
 * call is denied, and the lane says so. This file's Cohort allows 127.0.0.1 for users' URLs.
 */
useOwnServer({ USER_BASE_URL_ALLOWED_NETWORKS: "127.0.0.1/32" });

const RUN_TIMEOUT = 120_000;
const TITLE = "Launch notes";
const TASK = "Create a note with the launch checklist for the mobile app.";

let browser: Browser;
let notes: NotesServer;
beforeAll(async () => {
  browser = await launchBrowser();
  notes = await startNotesServer({ name: "notes" });
});
afterAll(async () => {
  await browser?.close();
  await notes?.close();
});

async function send(page: Page, text: string): Promise<Locator> {
  const box = page.getByRole("textbox", { name: "Message" });
  await expect.poll(() => box.isEnabled(), { timeout: RUN_TIMEOUT }).toBe(true);
  const runs = await page.getByTestId("run").count();
  await box.fill(text);
  await box.press("Enter");
  await expect.poll(() => page.getByTestId("run").count(), { timeout: 20_000 }).toBe(runs + 1);
  const id = await page.getByTestId("run").last().getAttribute("data-run-id");
  return page.locator(`[data-testid="run"][data-run-id="${id}"]`);
}

const createNoteRow = (scope: Page | Locator) =>
  scope.locator('[data-testid="tool-call"][data-tool="mcp__notes__create_note"]');

describe("an MCP server's write tool, approved and denied in the lane", () => {
  it(
    "connects the server, gives it to the Coder, approves its call across a reload, keeps the rows after the run, and denies a second call",
    async () => {
      const user = await createUser();
      const { page, expectNoErrors, close } = await openPage(browser, {
        viewport: { width: 1280, height: 1000 },
      });
      await signInContext(page.context(), user.token);

      // 1. Settings → MCP servers: connect the notes server, as the user.
      await page.goto("/settings");
      const section = page.getByRole("region", { name: "MCP servers" });
      await section.getByLabel("Name", { exact: true }).fill("Notes");
      await section.getByLabel("Server URL", { exact: true }).fill(notes.url);
      await section.getByRole("button", { name: "Add server" }).click();
      await expectToast(page, "Connected Notes: 2 tools");

      // 2. A new session: the Coder alone, and the Notes server chosen for it by keyboard.
      await page.goto("/chat");
      await page.getByRole("button", { name: "New session" }).first().click();
      const dialog = page.getByRole("dialog", { name: "New session" });
      await dialog.getByLabel("Title", { exact: true }).fill(TITLE);
      await dialog.getByLabel("Manual").check();
      for (const [role, on] of [
        ["Strategist", false],
        ["Coder", true],
        ["Designer", false],
        ["Critic", false],
      ] as const) {
        const box = dialog.getByRole("checkbox", { name: role, exact: true });
        if ((await box.isChecked()) !== on) await box.click();
      }
      const tools = dialog.getByTestId("role-tools");
      expect(await tools.getByTestId("role-tools-summary").textContent()).toBe(
        "— Defaults: read-only built-ins for every role, no MCP server",
      );
      await tools.locator("summary").focus();
      await page.keyboard.press("Enter");
      const coder = tools.getByRole("group", { name: "Coder" });
      await coder.waitFor();
      // Only the working role is offered; its read-only built-ins are on, the server is off.
      expect(await tools.getByRole("group").count()).toBe(1);
      expect(await coder.getByRole("checkbox", { name: /^Search documents/ }).isChecked()).toBe(
        true,
      );
      const server = coder.getByRole("checkbox", { name: "MCP server Notes (2 tools)" });
      expect(await server.isChecked()).toBe(false);
      await server.focus();
      await page.keyboard.press("Space");
      expect(await server.isChecked()).toBe(true);
      expect(await tools.getByTestId("role-tools-summary").textContent()).toBe(
        "— Chosen for 1 role",
      );
      expect(await axeViolations(page, ['[data-testid="role-tools"]'])).toEqual([]);
      await screenshot(page, "session-role-tools", false);
      await dialog.getByRole("button", { name: "Create session" }).click();
      await page.waitForURL(/\/chat\/[\w-]+$/);
      await page.getByRole("heading", { level: 1, name: TITLE }).waitFor();

      // 3. The Coder calls create_note; the default policy asks before a write.
      const run = await send(page, TASK);
      const card = run.getByTestId("approval-card").first();
      await card.waitFor({ timeout: RUN_TIMEOUT });
      await expect.poll(() => card.getAttribute("data-status")).toBe("pending");
      await expect
        .poll(() => card.getByRole("heading").textContent())
        .toBe("Approve Create note (Notes)?");
      await expect
        .poll(() => createNoteRow(run).first().getAttribute("data-status"))
        .toBe("awaiting_approval");
      expect(notes.calls.filter((c) => c.tool === "create_note")).toEqual([]);
      await screenshot(page, "tool-approval-card", false);

      // 4. A reload in the middle of the pause: the card is still there, and still pending.
      await page.reload();
      await page.getByRole("heading", { level: 1, name: TITLE }).waitFor();
      const again = page.getByTestId("approval-card").first();
      await again.waitFor({ timeout: 30_000 });
      await expect.poll(() => again.getAttribute("data-status")).toBe("pending");
      expect(await again.getByLabel("Arguments (JSON, editable)").inputValue()).toContain(
        '"title"',
      );
      expect(
        await axeViolations(page, ['[data-testid="approval-card"]', '[data-testid="tool-call"]']),
      ).toEqual([]);
      await again.getByRole("button", { name: "Approve", exact: true }).focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => again.getAttribute("data-status")).toBe("approved");
      await expect
        .poll(() => again.getByTestId("approval-outcome").textContent())
        .toMatch(/^Approved by .+\.$/);

      const lastRun = page.getByTestId("run").last();
      await expect
        .poll(() => lastRun.getAttribute("data-status"), { timeout: RUN_TIMEOUT })
        .toBe("completed");
      // The note is on the server, once.
      expect(notes.calls.filter((c) => c.tool === "create_note")).toHaveLength(1);
      const created = notes.notes.at(-1);
      expect(created?.id).toBe("n3");
      const done = createNoteRow(lastRun).last();
      await expect.poll(() => done.getAttribute("data-status")).toBe("completed");
      const toggle = done.getByRole("button", { name: /Create note \(Notes\)/ });
      await toggle.focus();
      await page.keyboard.press("Enter");
      await expect
        .poll(() => done.getByTestId("tool-call-output").textContent())
        .toBe(`Created note n3: ${created?.title}`);
      await screenshot(page, "tool-call-row", false);

      // 5. A reload of the finished run: the row comes back from what the server stored.
      await page.reload();
      await page.getByRole("heading", { level: 1, name: TITLE }).waitFor();
      const stored = createNoteRow(page.getByTestId("run").last()).last();
      await stored.waitFor({ timeout: 30_000 });
      expect(await stored.getAttribute("data-status")).toBe("completed");
      const facts = (await stored.getByTestId("tool-call-facts").textContent()) ?? "";
      expect(facts).toMatch(
        /^on Notes · Changes your data · .+ · [\d,]+ characters · free · approved by .+$/,
      );
      expect(await stored.getByTestId("tool-call-args").textContent()).toMatch(/^\{"body":/);
      const reopened = stored.getByRole("button", { name: /Create note \(Notes\)/ });
      await reopened.focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => reopened.getAttribute("aria-expanded")).toBe("true");
      // The arguments in full, as the note was made with them.
      expect(JSON.parse((await stored.locator("pre").first().textContent()) ?? "null")).toEqual({
        title: created?.title,
        body: created?.body,
      });
      expect(await stored.getByTestId("tool-call-output").textContent()).toBe(
        `Created note n3: ${created?.title}`,
      );
      expect(await axeViolations(page, ['[data-testid="tool-call"]'])).toEqual([]);

      // 6. A second run: the call is denied with the Deny button; the lane says so.
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
      const denied = createNoteRow(second).last();
      await expect.poll(() => denied.getAttribute("data-status")).toBe("denied");
      expect(await denied.getByTestId("tool-call-error").textContent()).toMatch(
        /^Denied by .+: the tool was not called\.$/,
      );
      expect(notes.calls.filter((c) => c.tool === "create_note")).toHaveLength(1);

      // And after a reload the denied row is still there, saying so.
      await page.reload();
      await page.getByRole("heading", { level: 1, name: TITLE }).waitFor();
      const deniedStored = createNoteRow(page.getByTestId("run").last()).last();
      await deniedStored.waitFor({ timeout: 30_000 });
      expect(await deniedStored.getAttribute("data-status")).toBe("denied");
      expect(await deniedStored.getByTestId("tool-call-error").textContent()).toMatch(
        /^Denied by .+: the tool was not called\.$/,
      );

      // 7. The session's own settings: the Coder's choice is there, and is taken back.
      await page.getByRole("button", { name: "Session actions" }).click();
      await page.getByRole("menuitem", { name: "Edit details…" }).click();
      const edit = page.getByRole("dialog", { name: "Edit session" });
      const editTools = edit.getByTestId("role-tools");
      expect(await editTools.getByTestId("role-tools-summary").textContent()).toBe(
        "— Chosen for 1 role",
      );
      await editTools.locator("summary").focus();
      await page.keyboard.press("Enter");
      const editCoder = editTools.getByRole("group", { name: "Coder" });
      const editServer = editCoder.getByRole("checkbox", { name: "MCP server Notes (2 tools)" });
      expect(await editServer.isChecked()).toBe(true);
      expect(await axeViolations(page, ['[data-testid="role-tools"]'])).toEqual([]);
      await editServer.focus();
      await page.keyboard.press("Space");
      await edit.getByRole("button", { name: "Save" }).click();
      await edit.waitFor({ state: "detached" });
      const sessionId = page.url().split("/").at(-1) as string;
      const { session } = await api<{ session: TSession }>(
        "GET",
        `/api/sessions/${sessionId}`,
        user.token,
      );
      expect(session.tools.roles.coder).toEqual({
        builtins: ["search_documents", "read_url", "web_search"],
        mcp_servers: [],
      });

      expectNoErrors();
      await close();
    },
    RUN_TIMEOUT * 5,
  );
});
