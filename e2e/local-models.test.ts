import type { ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
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
    const user = await createUser();
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 900 },
    });
    await signInContext(page.context(), user.token);
    await page.goto("/settings");
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
