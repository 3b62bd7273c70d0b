import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { SHARE_MESSAGES, type TSharedView, type TShareLink } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { type SignedUp, signUp } from "../support/accounts";
import {
  createTestApp,
  createTestDb,
  listenLocally,
  type TestApp,
  testConfig,
  testDbKind,
} from "../support/app";
import { createSession, sendMessage, sessionEvents, waitForRunEnd } from "../support/runs";
import { signUpWithCredits } from "../support/runs-credits";
import { openShareStream, type ShareStreamReader } from "../support/share-stream";

/**
 * Advisory class: resource exhaustion by anonymous clients. A share link's live stream needs
 * no account; each open one holds a connection and a listener on the session's room. Open
 * streams are bounded per address and per link (429 beyond, the standard error), and a
 * stream follows the run's own event fan-out, across instances too (decision 051).
 */

let t: TestApp;
let url = "";

beforeAll(async () => {
  t = await createTestApp({
    SIMULATOR_TOKENS_PER_SECOND: "0",
    SIGNUP_CREDITS: "0",
    SHARE_STREAMS_PER_ADDRESS: "3",
    SHARE_STREAMS_PER_LINK: "2",
  });
  url = await listenLocally(t.app);
});
afterAll(async () => {
  await t?.close();
});

async function liveLink(owner: SignedUp): Promise<TShareLink> {
  const session = await createSession(owner.client, { title: "Busy" });
  const response = await owner.client.post(`/api/sessions/${session.id}/shares`, { live: true });
  expect(response.statusCode).toBe(201);
  return response.json().share as TShareLink;
}

async function opened(token: string): Promise<ShareStreamReader> {
  const stream = await openShareStream(url, token);
  expect(stream.status).toBe(200);
  await stream.readUntil((events) => events.some((e) => e.event === "open"));
  return stream;
}

async function refused(token: string) {
  const response = await fetch(`${url}/api/share/${token}/events`);
  expect(response.status).toBe(429);
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

describe("live share streams are bounded", () => {
  it("per link and per address, and a closed stream gives its place back", async () => {
    const owner = await signUp(t.app);
    const [busy, other] = [await liveLink(owner), await liveLink(owner)];
    const streams = [await opened(busy.token), await opened(busy.token)];
    expect(await refused(busy.token)).toEqual({
      code: "rate_limited",
      message: SHARE_MESSAGES.tooManyStreamsOnLink,
    });
    streams.push(await opened(other.token));
    expect(await refused(other.token)).toEqual({
      code: "rate_limited",
      message: SHARE_MESSAGES.tooManyStreamsFromAddress(3),
    });

    // The place comes back once the server sees the viewer leave.
    streams.pop()?.close();
    let again = await openShareStream(url, other.token);
    for (let i = 0; again.status === 429 && i < 100; i++) {
      again.close();
      await sleep(50);
      again = await openShareStream(url, other.token);
    }
    expect(again.status).toBe(200);
    streams.push(again);
    for (const stream of streams) stream.close();
  });
});

describe.runIf(testDbKind === "postgres" && Boolean(process.env.TEST_REDIS_URL))(
  "two instances with Redis",
  () => {
    it("streams a run of one instance to a viewer of the other, and a revocation on one ends it on the other", async () => {
      const testDb = await createTestDb();
      const prefix = `test:${randomBytes(6).toString("hex")}:`;
      const env = testConfig({ SIGNUP_CREDITS: "0", SIMULATOR_TOKENS_PER_SECOND: "200" });
      const a = await buildApp(env, { db: testDb.db, redisPrefix: prefix });
      const b = await buildApp(env, { db: testDb.db, redisPrefix: prefix });
      try {
        const bUrl = await listenLocally(b);
        const owner = await signUpWithCredits(a, 100);
        const session = await createSession(owner.client, { title: "Across" });
        const made = await owner.client.post(`/api/sessions/${session.id}/shares`, { live: true });
        const link = made.json().share as TShareLink;
        const view = (await (await fetch(`${bUrl}/api/share/${link.token}`)).json()) as TSharedView;
        const stream = await openShareStream(bUrl, link.token, view.last_seq);
        await stream.readUntil((events) => events.some((e) => e.event === "open"));

        const { run_id } = await sendMessage(owner.client, session.id, "Across instances");
        await stream.readUntil((events) =>
          events.some((e) => e.event === "run" && e.data.type === "run.completed"),
        );
        await waitForRunEnd(owner.client, session.id, run_id);
        const stored = (await sessionEvents(owner.client, session.id)).filter(
          (e) => e.type !== "credits.changed",
        );
        const streamed = stream.received.filter((e) => e.event === "run").map((e) => e.data);
        expect(streamed.map((e) => [e.seq, e.type])).toEqual(stored.map((e) => [e.seq, e.type]));

        expect((await owner.client.delete(`/api/shares/${link.id}`)).statusCode).toBe(200);
        const last = await stream.readUntil(() => false);
        expect(last.at(-1)).toEqual({ event: "end", data: { reason: "gone" } });
      } finally {
        await a.close();
        await b.close();
        await testDb.drop();
      }
    });
  },
);
