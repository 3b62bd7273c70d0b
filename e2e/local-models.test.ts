import type { ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { FakeProviderServer } from "../apps/server/test/support/fake-provider/fake-provider-server";
import { createUser, signInContext } from "./support/accounts";
import { launchBrowser, openPage, screenshot, useBaseURL } from "./support/browser";
import { freePort, startServer, stopServer } from "./support/server";
import { expectToast } from "./support/ui";

/**
 * Settings → Local models (decision 056): this file's own Cohort looks for a local model
 * server on one test port, where a stand-in that answers like Ollama's `/v1/models` starts
 * only after Cohort did, so "Look again" is what finds it.
 */
let browser: Browser;
let cohort: ChildProcess | undefined;
let ollama: Server | undefined;
let ollamaPort: number;

beforeAll(async () => {
  ollamaPort = await freePort();
  const port = await freePort();
  cohort = await startServer(port, {
    ADMIN_EMAIL: inject("adminEmail"),
    ADMIN_PASSWORD: inject("adminPassword"),
    LOCAL_MODEL_DISCOVERY: "1",
    LOCAL_MODEL_PORTS: `${ollamaPort}=Ollama`,
  });
  useBaseURL(`http://127.0.0.1:${port}`);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  useBaseURL(undefined);
  if (cohort) await stopServer(cohort);
  await new Promise((resolve) => (ollama ? ollama.close(resolve) : resolve(undefined)));
});

/** Settings, for a new account signed in on a fresh page of the server in use. */
async function openSettings(): ReturnType<typeof openPage> {
  const user = await createUser();
  const opened = await openPage(browser, { viewport: { width: 1280, height: 900 } });
  await signInContext(opened.page.context(), user.token);
  await opened.page.goto("/settings");
  return opened;
}

/** Ollama's OpenAI-compatible model list, as `ollama serve` answers it. */
function startOllama(): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method === "GET" && request.url === "/v1/models") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          object: "list",
          data: [
            { id: "llama3.2:3b", object: "model", created: 1733000000, owned_by: "library" },
            { id: "nomic-embed-text:latest", object: "model", owned_by: "library" },
          ],
        }),
      );
      return;
    }
    response.writeHead(404).end();
  });
  return new Promise((resolve) => server.listen(ollamaPort, "127.0.0.1", () => resolve(server)));
}

describe("Settings → Local models", () => {
  it("finds a local model server started after Cohort when the user chooses Look again", async () => {
    const { page, expectNoErrors, close } = await openSettings();
    const card = page.getByTestId("local-models");
    await card.getByRole("heading", { name: "Local models" }).waitFor();
    await card.getByText("No local model server is running.", { exact: false }).waitFor();
    expect(await card.getByRole("status").textContent()).toBe(
      "No local model server is running. Start one (for example ollama serve), then choose Look again.",
    );

    ollama = await startOllama();
    await card.getByRole("button", { name: "Look again" }).click();
    await expectToast(page, "Found 1 model on Ollama");
    const servers = card.getByRole("status", { name: "Local model servers" });
    await servers.waitFor();
    expect(await servers.locator("li").allTextContents()).toEqual([
      `Ollama on port ${ollamaPort}: 1 model — Local: llama3.2:3b (Ollama)`,
    ]);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, "settings-local-models", false);

    // The model is now in the catalogue the pickers read, free and for every role.
    const models = await page.evaluate(async () => {
      const response = await fetch("/api/ai/models");
      return (await response.json()).models as { id: string; name: string; price: unknown }[];
    });
    expect(models.find((m) => m.id === "local:llama3.2:3b")).toMatchObject({
      name: "Local: llama3.2:3b (Ollama)",
      price: { input_per_1k: 0, output_per_1k: 0 },
    });
    expectNoErrors();
    await close();
  });
});

/**
 * A self-hoster whose model server was already running when Cohort started (decision 056):
 * found with no configuration (the test names its stand-in's port, as a real install finds
 * Ollama's 11434), picked in the New session dialog, and the run's answer is the stand-in's,
 * free and not labelled Simulated. The stand-in speaks Ollama's OpenAI-compatible API: its
 * `/v1/models` with Ollama's `owned_by`, and streamed chat completions.
 */
describe("a local model server running before Cohort starts", () => {
  let found: FakeProviderServer | undefined;
  let own: ChildProcess | undefined;
  const LOCAL = "local:llama3.2:3b";
  const NAME = "Local: llama3.2:3b (Ollama)";
  const ANSWER = "function canBorrow(member) { return member.loans.length < 5; }";

  beforeAll(async () => {
    found = await FakeProviderServer.start();
    found.models = [
      { id: "llama3.2:3b", owned_by: "library" },
      { id: "nomic-embed-text:latest", owned_by: "library" },
    ];
    const port = await freePort();
    own = await startServer(port, {
      ADMIN_EMAIL: inject("adminEmail"),
      ADMIN_PASSWORD: inject("adminPassword"),
      LOCAL_MODEL_DISCOVERY: "1",
      LOCAL_MODEL_PORTS: `${new URL(found.url).port}=Ollama`,
    });
    useBaseURL(`http://127.0.0.1:${port}`);
  });
  afterAll(async () => {
    useBaseURL(undefined);
    if (own) await stopServer(own);
    await found?.close();
  });

  it("answers a run from the local model with no configuration, free and not simulated", async () => {
    if (!found) throw new Error("No stand-in");
    const user = await createUser();
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 900 },
    });
    await signInContext(page.context(), user.token);

    // Found at start: Settings lists it without Look again.
    await page.goto("/settings");
    const servers = page
      .getByTestId("local-models")
      .getByRole("status", { name: "Local model servers" });
    await servers.waitFor();
    expect(await servers.locator("li").allTextContents()).toEqual([
      `Ollama on port ${new URL(found.url).port}: 1 model — ${NAME}`,
    ]);

    // The New session dialog offers it to the coordinator and to every role.
    await page.goto("/chat?new=1");
    const dialog = page.getByRole("dialog", { name: "New session" });
    await dialog.getByLabel("Title", { exact: true }).fill("Loan check");
    const coordinator = dialog.getByLabel("Coordinator model");
    await expect.poll(() => coordinator.locator(`option[value="${LOCAL}"]`).count()).toBe(1);
    expect(await coordinator.locator(`option[value="${LOCAL}"]`).textContent()).toContain(NAME);
    await coordinator.selectOption(LOCAL);
    for (const role of ["Strategist", "Coder", "Designer", "Critic"]) {
      const picker = dialog.getByLabel(`${role} model`, { exact: true });
      expect(await picker.locator(`option[value="${LOCAL}"]`).count(), role).toBe(1);
      await picker.selectOption(LOCAL);
    }
    await dialog.getByRole("button", { name: "Create session" }).click();
    await page.waitForURL(/\/chat\/[\w-]+$/);

    // The plan, the Coder's step and the answer all come from the local server.
    found.reset();
    found.next({
      json: {
        rationale: "One Coder step is enough.",
        steps: [{ id: "s1", role: "coder", task: "Write the loan check", dependsOn: [] }],
      },
    });
    found.defaultReply = { text: ANSWER };
    const box = page.getByRole("textbox", { name: "Message" });
    await expect.poll(() => box.isEnabled()).toBe(true);
    await box.fill("Check whether a member may borrow another book");
    await box.press("Enter");
    const run = page.getByTestId("run").last();
    await run.waitFor();
    await expect
      .poll(() => run.getAttribute("data-status"), { timeout: 90_000, interval: 100 })
      .toBe("completed");
    const coder = run.locator('[data-testid="agent-lane"][data-role="coder"]').first();
    expect(await coder.getByTestId("lane-output").textContent()).toContain(ANSWER);
    expect(await coder.getByTestId("lane-model").textContent()).toBe(` · by ${NAME}`);
    expect(await run.getByTestId("simulated-badge").count()).toBe(0);
    expect(await run.getByTestId("final-answer").textContent()).toContain(ANSWER);
    expect(await run.getByTestId("run-total").textContent()).toMatch(/^Total: 0\.00 credits/);
    expect(found.requests.length).toBeGreaterThanOrEqual(2);
    for (const request of found.requests) {
      expect([request.path, request.body.model]).toEqual(["/v1/chat/completions", "llama3.2:3b"]);
    }
    await run.scrollIntoViewIfNeeded();
    await screenshot(page, "chat-run-local-model", false);
    expectNoErrors();
    await close();
  });
});

/**
 * When discovery does not run (decision 056): a named model server (OPENAI_COMPATIBLE_BASE_URL)
 * wins over what a probe would find, and LOCAL_MODEL_DISCOVERY=0 turns probing off; Settings
 * says which, offers no Look again, and the server running on the port joins no list.
 */
describe("when Cohort does not look for local model servers", () => {
  let running: FakeProviderServer | undefined;
  beforeAll(async () => {
    running = await FakeProviderServer.start();
    running.models = [{ id: "llama3.2:3b", owned_by: "library" }];
  });
  afterAll(() => running?.close());

  for (const [why, env, says] of [
    [
      "OPENAI_COMPATIBLE_BASE_URL is set",
      { OPENAI_COMPATIBLE_MODELS: "qwen2.5:7b", LOCAL_MODEL_DISCOVERY: "1" },
      "This installation names its model server (OPENAI_COMPATIBLE_BASE_URL), so Cohort does not look for others.",
    ],
    [
      "LOCAL_MODEL_DISCOVERY=0",
      { LOCAL_MODEL_DISCOVERY: "0" },
      "Looking for local model servers is turned off on this installation (LOCAL_MODEL_DISCOVERY=0).",
    ],
  ] as const) {
    it(`says so in Settings and finds nothing when ${why}`, async () => {
      if (!running) throw new Error("No stand-in");
      const port = await freePort();
      const named = "OPENAI_COMPATIBLE_MODELS" in env;
      const server = await startServer(port, {
        ADMIN_EMAIL: inject("adminEmail"),
        ADMIN_PASSWORD: inject("adminPassword"),
        LOCAL_MODEL_PORTS: `${new URL(running.url).port}=Ollama`,
        ...(named ? { OPENAI_COMPATIBLE_BASE_URL: running.baseUrls.openaiCompatible } : {}),
        ...env,
      });
      useBaseURL(`http://127.0.0.1:${port}`);
      try {
        const { page, expectNoErrors, close } = await openSettings();
        const card = page.getByTestId("local-models");
        await card.getByText(says).waitFor();
        expect(await card.getByRole("button", { name: "Look again" }).count()).toBe(0);
        const models = await page.evaluate(async () => {
          const response = await fetch("/api/ai/models");
          return ((await response.json()).models as { id: string; name: string }[]).filter((m) =>
            m.id.startsWith("local:"),
          );
        });
        expect(models.map((m) => m.name)).toEqual(named ? ["qwen2.5:7b (local)"] : []);
        expectNoErrors();
        await close();
      } finally {
        useBaseURL(undefined);
        await stopServer(server);
      }
    });
  }
});
