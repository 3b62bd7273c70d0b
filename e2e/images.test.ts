import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import type { TSession } from "@cohort/contracts";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  FAKE_IMAGE,
  FakeProviderServer,
} from "../apps/server/test/support/fake-provider/fake-provider-server";
import { createUser, signInContext } from "./support/accounts";
import { launchBrowser, openPage, screenshot, useBaseURL } from "./support/browser";
import { freePort, startServer, stopServer } from "./support/server";

/**
 * CoVision makes images (decision 064), in a real browser: this file's server has a hosted
 * OpenAI key whose address is a local stand-in that speaks OpenAI's wire formats, images
 * API included (POST /v1/images/generations answering b64_json). The Designer on CoVision
 * draws through it; the picture shows in its lane and in the answer as an image, and its
 * download is the file the stand-in made.
 */

let browser: Browser;
let openai: FakeProviderServer;
let server: ChildProcess;
let origin: string;

const ONE_DESIGNER = {
  rationale: "A picture is what was asked for.",
  steps: [{ id: "s1", role: "designer", task: "Draw a lighthouse at dusk", dependsOn: [] }],
};

beforeAll(async () => {
  [browser, openai] = await Promise.all([launchBrowser(), FakeProviderServer.start()]);
  openai.defaultReply = { text: "Here is the lighthouse you asked for." };
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  server = await startServer(port, {
    ADMIN_EMAIL: inject("adminEmail"),
    ADMIN_PASSWORD: inject("adminPassword"),
    OPENAI_API_KEY: "sk-e2e-hosted",
    OPENAI_BASE_URL: openai.baseUrls.openai,
    MODEL_RETRY_BASE_DELAY_MS: "1",
  });
  useBaseURL(origin);
}, 180_000);
afterAll(async () => {
  useBaseURL(undefined);
  await browser?.close();
  if (server) await stopServer(server);
  await openai?.close();
});

describe("CoVision through a local stand-in of OpenAI's images API", () => {
  it("shows the Designer's picture in its lane and the answer, and downloads it", async () => {
    const user = await createUser();
    const created = await fetch(`${origin}/api/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${user.token}` },
      body: JSON.stringify({
        title: "Lighthouse poster",
        agent_preferences: { designer: { enabled: true, model: "covision" } },
      }),
    });
    expect(created.status).toBe(201);
    const { session } = (await created.json()) as { session: TSession };

    const { page, expectNoErrors, close } = await openPage(browser, {
      baseURL: origin,
      viewport: { width: 1360, height: 960 },
      acceptDownloads: true,
    });
    await signInContext(page.context(), user.token);
    await page.goto(`/chat/${session.id}`);
    openai.next({ json: ONE_DESIGNER });
    const box = page.getByRole("textbox", { name: "Message" });
    await expect.poll(() => box.isEnabled()).toBe(true);
    await box.fill("A poster of a lighthouse at dusk");
    await box.press("Enter");
    const run = page.getByTestId("run").last();
    await expect.poll(() => run.getAttribute("data-status"), { timeout: 60_000 }).toBe("completed");

    const request = openai.requests.find((r) => r.path === "/v1/images/generations");
    expect(request?.body).toMatchObject({ model: "gpt-image-1", n: 1 });

    // In the Designer's lane: an image, not a code block.
    const lane = page.getByTestId("agent-lane").filter({ hasText: "Designer" });
    expect(await lane.getByTestId("generated-image").count()).toBe(1);
    expect(await lane.locator("pre").count()).toBe(0);
    // And in the answer, loaded (the stand-in's 16×16 PNG).
    const pictures = page.getByTestId("generated-image");
    const shown = pictures.last();
    await shown.scrollIntoViewIfNeeded();
    const img = shown.locator("img");
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(16);
    expect(await img.getAttribute("alt")).toMatch(/^Draw a lighthouse at dusk/);
    expect(await page.getByText("Image made by CoVision (gpt-image-1).").count()).toBeGreaterThan(
      0,
    );
    await screenshot(page, "covision-image");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      shown.getByRole("link", { name: /^Download image/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^cohort-image-[0-9a-f]{8}\.png$/);
    const bytes = readFileSync((await download.path()) as string);
    expect(Buffer.compare(bytes, FAKE_IMAGE)).toBe(0);

    await expectNoErrors();
    await close();
  }, 120_000);
});
