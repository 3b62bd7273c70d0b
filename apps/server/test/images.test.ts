import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import type { TRun, TRunEvent, TSharedView } from "@cohort/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { TestClient } from "./support/client";
import {
  FAKE_IMAGE,
  type FakeProviderServer,
  solidPng,
} from "./support/fake-provider/fake-provider-server";
import { startHostedOpenAiApp } from "./support/hosted-openai";
import { createSession, eventsOf, runToEnd } from "./support/runs";
import { balanceOf, signUpWithCredits } from "./support/runs-credits";

/**
 * CoVision makes images (decision 064): the real `@ai-sdk/openai` client against a local
 * stand-in of OpenAI's images API (POST /v1/images/generations, b64_json), the picture
 * stored as a file, served only to the session's readers and its share links, its price
 * per image held and settled like any call's.
 */
let fake: FakeProviderServer;
let t: TestApp;
let keyless: TestApp;

const ONE_DESIGNER = {
  rationale: "A picture is what was asked for.",
  steps: [{ id: "s1", role: "designer", task: "Draw a lighthouse at dusk", dependsOn: [] }],
};
const IMAGE_PATH = /!\[([^\]]*)\]\((\/api\/images\/([0-9a-f-]{36}))\)/;

beforeAll(async () => {
  ({ t, fake } = await startHostedOpenAiApp({
    MODEL_RETRY_BASE_DELAY_MS: "1",
    MODEL_RETRY_MAX_DELAY_MS: "10",
  }));
  keyless = await createTestApp({ SIGNUP_CREDITS: "0" });
  await Promise.all([t.app.ready(), keyless.app.ready()]);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await keyless?.close();
  await fake?.close();
});
beforeEach(() => fake.reset({ text: "Here is the lighthouse you asked for." }));

/** The id of the picture the Designer's lane links to. */
function imageIdOf(events: TRunEvent[]): string {
  const lane = eventsOf(events, "agent.delta")
    .map((e) => e.text)
    .join("");
  return IMAGE_PATH.exec(lane)?.[3] as string;
}

async function designerRun(app: TestApp, message = "A poster of a lighthouse at dusk") {
  const owner = await signUpWithCredits(app.app, 500);
  const session = await createSession(owner.client, {
    agent_preferences: { designer: { enabled: true, model: "covision" } },
  });
  const { events } = await runToEnd(owner.client, session.id, message, 60_000);
  const detail = (await owner.client.get(`/api/sessions/${session.id}`)).json();
  const run = detail.runs.at(-1) as TRun;
  const answer = (detail.messages as { role: string; content: string }[])
    .filter((m) => m.role === "assistant")
    .at(-1)?.content;
  return { owner, session, events, run, answer };
}

describe("CoVision through OpenAI's images API", () => {
  it("makes the Designer's picture with gpt-image-1, stores it and shows it in the lane", async () => {
    fake.next({ json: ONE_DESIGNER });
    const { owner, events, run, answer } = await designerRun(t);
    expect(run.status).toBe("completed");

    const imageRequests = fake.requests.filter((r) => r.path === "/v1/images/generations");
    expect(imageRequests).toHaveLength(1);
    expect(imageRequests[0]?.body.model).toBe("gpt-image-1");
    expect(imageRequests[0]?.body.n).toBe(1);
    expect(imageRequests[0]?.headers.authorization).toBe("Bearer sk-hosted");
    expect(String(imageRequests[0]?.body.prompt)).toMatch(
      /^Draw a lighthouse at dusk\n\nContext: /,
    );

    const started = eventsOf(events, "agent.started").find((e) => e.role === "designer");
    expect(started).toMatchObject({ model: "covision", model_name: "CoVision", simulated: false });
    const lane = eventsOf(events, "agent.delta")
      .filter((e) => e.call_id === started?.call_id)
      .map((e) => e.text)
      .join("");
    const found = IMAGE_PATH.exec(lane);
    expect(found, lane).not.toBeNull();
    expect(lane).toContain("_Image made by CoVision (gpt-image-1)._");
    expect(lane).not.toContain("```");
    const step = run.steps.find((s) => s.role === "designer");
    expect(step?.output).toBe(lane);

    const id = found?.[3] as string;
    // The answer shows the picture too, though the coordinator's text left it out.
    expect(answer).toBe(
      `Here is the lighthouse you asked for.\n\n${found?.[0]}\n\n_Image made by CoVision (gpt-image-1)._`,
    );
    const finalText = eventsOf(events, "final.delta")
      .map((e) => e.text)
      .join("");
    expect(finalText).toBe(answer);
    const served = await owner.client.get(`/api/images/${id}`);
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.headers["content-disposition"]).toBe(
      `inline; filename="cohort-image-${id.slice(0, 8)}.png"`,
    );
    expect(Buffer.compare(served.rawPayload, FAKE_IMAGE)).toBe(0);

    const download = await owner.client.get(`/api/images/${id}?download=1`);
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-disposition"]).toBe(
      `attachment; filename="cohort-image-${id.slice(0, 8)}.png"`,
    );
    expect(Buffer.compare(download.rawPayload, FAKE_IMAGE)).toBe(0);
  });

  it("holds and charges the catalogue's price per image, and leaves no hold open", async () => {
    fake.next({ json: ONE_DESIGNER });
    const { owner, events, run } = await designerRun(t);
    const models = (await owner.client.get("/api/ai/models")).json().models as {
      id: string;
      price: { per_image?: number };
    }[];
    expect(models.find((m) => m.id === "covision")?.price.per_image).toBe(4.2);

    const started = eventsOf(events, "agent.started").find((e) => e.role === "designer");
    const done = eventsOf(events, "agent.done").find((e) => e.call_id === started?.call_id);
    expect(done).toMatchObject({ status: "completed", credits: 4.2, provider: "openai" });
    const changed = eventsOf(events, "credits.changed").find((e) => e.call_id === started?.call_id);
    expect(changed?.credits).toBe(4.2);
    expect(run.steps.find((s) => s.role === "designer")?.credits).toBe(4.2);

    const balance = await balanceOf(t.app, owner.user.id);
    expect(balance.available).toBe(balance.balance);
    expect(Math.round((500 - balance.balance) * 100)).toBe(Math.round(run.total_credits * 100));
  });

  it("serves the image to no one else: a stranger and a signed-out caller get 404 and 401", async () => {
    fake.next({ json: ONE_DESIGNER });
    const { events } = await designerRun(t);
    const id = imageIdOf(events);
    const stranger = await signUp(t.app);
    const denied = await stranger.client.get(`/api/images/${id}`);
    expect(denied.statusCode).toBe(404);
    expect(denied.json()).toEqual({
      error: { code: "image_not_found", message: "This image does not exist." },
    });
    const unknown = await stranger.client.get("/api/images/00000000-0000-4000-8000-000000000000");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe("image_not_found");
    const signedOut = await new TestClient(t.app).get(`/api/images/${id}`);
    expect(signedOut.statusCode).toBe(401);
  });

  it("shows the picture through a share link with the link's own path, and only there", async () => {
    fake.next({ json: ONE_DESIGNER });
    const { owner, session, events } = await designerRun(t);
    const id = imageIdOf(events);
    const created = await owner.client.post(`/api/sessions/${session.id}/shares`, {});
    expect(created.statusCode).toBe(201);
    const token = created.json().share.token as string;

    const viewer = new TestClient(t.app, "203.0.113.9");
    const view = (await viewer.get(`/api/share/${token}`)).json() as TSharedView;
    const output = view.runs[0]?.steps.find((s) => s.role === "designer")?.output ?? "";
    expect(output).toContain(`](/api/share/${token}/images/${id})`);
    expect(output).not.toContain(`](/api/images/${id})`);

    const shared = await viewer.get(`/api/share/${token}/images/${id}`);
    expect(shared.statusCode).toBe(200);
    expect(shared.headers["content-type"]).toBe("image/png");
    expect(Buffer.compare(shared.rawPayload, FAKE_IMAGE)).toBe(0);

    // Another session's link does not open this session's picture.
    const other = await createSession(owner.client);
    const otherLink = (await owner.client.post(`/api/sessions/${other.id}/shares`, {})).json().share
      .token as string;
    const crossed = await viewer.get(`/api/share/${otherLink}/images/${id}`);
    expect(crossed.statusCode).toBe(404);
    expect(crossed.json().error.code).toBe("image_not_found");

    const revoked = await owner.client.delete(`/api/shares/${created.json().share.id}`);
    expect(revoked.statusCode).toBe(200);
    expect((await viewer.get(`/api/share/${token}/images/${id}`)).statusCode).toBe(404);
  });

  it("refuses a file that is not an image: the lane fails and its hold is given back", async () => {
    fake.next({ json: ONE_DESIGNER });
    fake.defaultReply = { image: Buffer.from("<html><script>alert(1)</script></html>") };
    const { owner, events, run } = await designerRun(t);
    const started = eventsOf(events, "agent.started").find((e) => e.role === "designer");
    const done = eventsOf(events, "agent.done").find((e) => e.call_id === started?.call_id);
    expect(done).toMatchObject({ status: "failed", credits: 0 });
    expect(done?.error?.code).toBe("model_output_invalid");
    expect(run.status).toBe("failed");
    expect(eventsOf(events, "agent.delta").filter((e) => e.call_id === started?.call_id)).toEqual(
      [],
    );
    const balance = await balanceOf(t.app, owner.user.id);
    expect(balance.available).toBe(balance.balance);
    expect(Math.round((500 - balance.balance) * 100)).toBe(Math.round(run.total_credits * 100));
  });
});

describe("exports of a session with a picture", () => {
  it("link it in Markdown, list it by reference in JSON and embed it in the PDF", async () => {
    fake.next({ json: ONE_DESIGNER });
    const { owner, session, events } = await designerRun(t);
    const id = imageIdOf(events);

    const markdown = await owner.client.get(`/api/sessions/${session.id}/export?format=markdown`);
    expect(markdown.statusCode).toBe(200);
    expect(markdown.body).toContain(`](${t.app.config.publicUrl}/api/images/${id})`);
    expect(markdown.body).not.toContain(`](/api/images/${id})`);

    const json = await owner.client.get(`/api/sessions/${session.id}/export?format=json`);
    expect(json.json().images).toEqual([
      {
        id,
        url: `/api/images/${id}`,
        media_type: "image/png",
        bytes: FAKE_IMAGE.length,
        model: "covision",
        simulated: false,
        prompt: expect.stringMatching(/^Draw a lighthouse at dusk\n\nContext: /),
        created_at: expect.any(String),
      },
    ]);

    const pdf = await owner.client.get(`/api/sessions/${session.id}/export?format=pdf`);
    expect(pdf.statusCode).toBe(200);
    const text = pdf.rawPayload.toString("latin1");
    // Drawn where the Designer's draft and where the answer show it.
    expect(text.match(/\/Subtype \/Image/g)?.length).toBe(2);
    expect(text).toMatch(/\/Width 16\s/);
  });
});

describe("an account that is deleted", () => {
  it("takes its sessions' picture files with it", async () => {
    fake.next({ json: ONE_DESIGNER });
    const { owner } = await designerRun(t);
    const dir = path.join(t.app.config.dataDir, "images");
    const { rows } = await t.db.query<{ storage_key: string }>(
      "SELECT i.storage_key FROM generated_images i JOIN sessions s ON s.id = i.session_id WHERE s.user_id = $1",
      [owner.user.id],
    );
    expect(rows).toHaveLength(1);
    const file = path.join(dir, rows[0]?.storage_key as string);
    expect(existsSync(file)).toBe(true);
    const deleted = await owner.client.request("DELETE", "/api/account", {
      confirm: "DELETE",
      password: owner.password,
    });
    expect(deleted.statusCode).toBe(200);
    expect(existsSync(file)).toBe(false);
  });
});

describe("CoVision without an image provider", () => {
  it("draws a labelled simulated picture, stored and served as SVG", async () => {
    const { owner, events } = await designerRun(keyless);
    const started = eventsOf(events, "agent.started").find((e) => e.role === "designer");
    expect(started).toMatchObject({ model: "covision", simulated: true });
    const lane = eventsOf(events, "agent.delta")
      .filter((e) => e.call_id === started?.call_id)
      .map((e) => e.text)
      .join("");
    expect(lane).toContain(
      "_Simulated image: no image provider is configured, so the built-in simulator drew this picture._",
    );
    const id = IMAGE_PATH.exec(lane)?.[3] as string;
    const served = await owner.client.get(`/api/images/${id}`);
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/svg+xml");
    expect(served.headers["content-security-policy"]).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
    expect(served.body).toMatch(/^<svg [^>]*viewBox="0 0 640 400"/);
    expect(served.body).not.toMatch(/<script|href=/i);
  });
});

describe("a PNG of another size", () => {
  it("is kept byte for byte", async () => {
    const big = solidPng(64, [200, 30, 30]);
    fake.next({ json: ONE_DESIGNER }, { image: big });
    const { owner, events } = await designerRun(t);
    const id = imageIdOf(events);
    const served = await owner.client.get(`/api/images/${id}`);
    expect(served.headers["content-length"]).toBe(String(big.length));
    expect(Buffer.compare(served.rawPayload, big)).toBe(0);
  });
});

describe("generate_image, the Designer's tool", () => {
  it("is a costly built-in priced per image that makes a stored picture through the images API", async () => {
    const owner = await signUp(t.app);
    const session = await createSession(owner.client);
    const scope = { userId: owner.user.id, workspaceId: null, sessionId: session.id };
    const tool = (await t.app.tools.toolsFor(scope)).find((x) => x.name === "generate_image");
    expect(tool).toMatchObject({
      title: "Generate an image",
      risk: "costly",
      source: { kind: "builtin" },
      price: 420,
      untrustedOutput: false,
    });
    const output = await (tool as NonNullable<typeof tool>).execute(
      { prompt: "A red bicycle against a white wall" },
      {
        runId: randomUUID(),
        sessionId: session.id,
        workspaceId: null,
        userId: owner.user.id,
        stepId: "s1",
        role: "designer",
        callId: randomUUID(),
        signal: new AbortController().signal,
        log: { warn: () => undefined, error: () => undefined },
        scratchDir: () => Promise.reject(new Error("not used")),
      },
    );
    const request = fake.requests.find((r) => r.path === "/v1/images/generations");
    expect(request?.body).toMatchObject({
      model: "gpt-image-1",
      prompt: "A red bicycle against a white wall",
      n: 1,
    });
    expect(output.creditsUsed).toBe(420);
    const file = output.files?.[0];
    expect(file).toMatchObject({ mediaType: "image/png", bytes: FAKE_IMAGE.length });
    expect(file?.name).toMatch(/^cohort-image-[0-9a-f]{8}\.png$/);
    expect(output.text).toContain(`](${file?.url})`);
    expect(output.text).toContain("_Image made by CoVision (gpt-image-1)._");
    const served = await owner.client.get(file?.url as string);
    expect(served.statusCode).toBe(200);
    expect(Buffer.compare(served.rawPayload, FAKE_IMAGE)).toBe(0);
    const stranger = await signUp(t.app);
    expect((await stranger.client.get(file?.url as string)).statusCode).toBe(404);
  });

  it("draws a labelled simulated picture without a provider, as an SVG file", async () => {
    const owner = await signUp(keyless.app);
    const session = await createSession(owner.client);
    const scope = { userId: owner.user.id, workspaceId: null, sessionId: session.id };
    const tool = (await keyless.app.tools.toolsFor(scope)).find((x) => x.name === "generate_image");
    // The test apps charge simulated calls at catalogue prices (SIMULATOR_CHARGES=1).
    expect(tool?.price).toBe(420);
    const output = await (tool as NonNullable<typeof tool>).execute(
      { prompt: "A paper crane" },
      {
        runId: randomUUID(),
        sessionId: session.id,
        workspaceId: null,
        userId: owner.user.id,
        stepId: null,
        role: "designer",
        callId: randomUUID(),
        signal: new AbortController().signal,
        log: { warn: () => undefined, error: () => undefined },
        scratchDir: () => Promise.reject(new Error("not used")),
      },
    );
    expect(output.text).toContain(
      "_Simulated image: no image provider is configured, so the built-in simulator drew this picture._",
    );
    expect(output.files?.[0]?.mediaType).toBe("image/svg+xml");
    const served = await owner.client.get(output.files?.[0]?.url as string);
    expect(served.body).toContain("<title>A paper crane</title>");
  });
});

describe("generate_image in a run", () => {
  it("the Designer calls it by default; its picture is stored, priced, listed as the result's file", async () => {
    const owner = await signUpWithCredits(keyless.app, 500);
    const session = await createSession(owner.client, {
      manual_agent_selection: true,
      agent_preferences: { designer: { enabled: true, model: null, instructions: "" } },
      // The Designer's default tools include generate_image; costly, so no asking here.
      tools: { policy: "never_ask", roles: {} },
    });
    const { events } = await runToEnd(
      owner.client,
      session.id,
      "Generate an image for the landing page: a lighthouse at dusk",
      90_000,
    );
    const result = eventsOf(events, "tool.result").find((e) => e.tool === "generate_image");
    expect(result).toMatchObject({ status: "completed", credits: 4.2 });
    const file = result?.files?.[0];
    expect(file?.media_type).toBe("image/svg+xml");
    expect(file?.name).toMatch(/^cohort-image-[0-9a-f]{8}\.svg$/);
    const served = await owner.client.get(file?.url as string);
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/svg+xml");
    const stranger = await signUp(keyless.app);
    expect((await stranger.client.get(file?.url as string)).statusCode).toBe(404);
  }, 120_000);
});
