import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import {
  AUTH_ERROR_CODES,
  CLIENT_EVENTS,
  SERVER_EVENTS,
  type TBlogIndex,
  type TJoinSessionAck,
} from "@cohort/contracts";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import type { Env } from "../src/config";
import { signUp, uniqueEmail } from "./support/accounts";
import { createTestApp, createWebDistFixture, type TestApp, testConfig } from "./support/app";
import { TestClient } from "./support/client";
import { createSession } from "./support/runs";
import { socketOpener } from "./support/sockets";

/** Accounts (decision 029 and its neighbours): the sign-up address check, the debug routes' gate, the blog, join by bare id. */

const DEBUG_PATHS = [
  "/debug-auth",
  "/simple-auth",
  "/test-redirect",
  "/isolated-auth",
  "/isolated-dashboard",
  "/no-router-auth",
  "/auth-debug",
  "/auth-debug-page",
];

const BLOG: TBlogIndex = {
  posts: [
    {
      slug: "newer-post",
      title: "Credits & <holds>",
      date: "2026-11-20",
      summary: 'What a "hold" is.',
    },
    { slug: "older-post", title: "Plans first", date: "2026-10-01", summary: "Why we plan." },
  ],
};

function webDistWithBlog(): string {
  const dir = createWebDistFixture();
  mkdirSync(path.join(dir, "blog"));
  writeFileSync(path.join(dir, "blog", "posts.json"), JSON.stringify(BLOG));
  return dir;
}

let t: TestApp;

/** A second app with other settings on this file's database (a fresh one costs seconds). */
function appOnSameDb(env: Env = {}) {
  return buildApp(testConfig(env), { db: t.db, redisPrefix: `test:${randomUUID()}:` });
}

beforeAll(async () => {
  t = await createTestApp({
    SIGNUP_LIMIT_PER_HOUR: "2",
    PUBLIC_URL: "https://cohort.example",
    WEB_DIST_DIR: webDistWithBlog(),
  });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => t?.close());

describe("POST /api/user-auth/email-status", () => {
  it("says whether an address is free, compared as sign-up compares it", async () => {
    const taken = await signUp(t.app);
    const client = new TestClient(t.app, "198.51.100.1");
    const same = await client.post("/api/user-auth/email-status", {
      email: `  ${taken.email.toUpperCase()} `,
    });
    expect(same.statusCode).toBe(200);
    expect(same.headers["cache-control"]).toBe("no-store");
    expect(same.json()).toEqual({ email: taken.email, available: false });

    const fresh = uniqueEmail();
    const free = await client.post("/api/user-auth/email-status", { email: fresh });
    expect(free.json()).toEqual({ email: fresh, available: true });

    // Sign-up itself refuses the taken address the same way, so the check reveals nothing new.
    const signup = await client.post("/api/user-auth/signup", {
      email: taken.email,
      password: "another long passphrase",
      firstName: "Ada",
      lastName: "Lovelace",
    });
    expect(signup.statusCode).toBe(409);
    expect(signup.json().error.code).toBe(AUTH_ERROR_CODES.emailTaken);
  });

  it("refuses a malformed address with 400 and a request without the CSRF token with 403", async () => {
    const client = new TestClient(t.app, "198.51.100.2");
    const bad = await client.post("/api/user-auth/email-status", { email: "not-an-address" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe("validation_failed");

    const noCsrf = await client.post(
      "/api/user-auth/email-status",
      { email: uniqueEmail() },
      { csrf: false },
    );
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error.message).toContain("CSRF");
  });

  it("allows three checks per account an address may create, then 429 with Retry-After", async () => {
    // SIGNUP_LIMIT_PER_HOUR=2 here: six checks an hour from one network.
    const client = new TestClient(t.app, "198.51.100.3");
    for (let i = 0; i < 6; i++) {
      const ok = await client.post("/api/user-auth/email-status", { email: uniqueEmail() });
      expect(ok.statusCode).toBe(200);
    }
    const refused = await client.post("/api/user-auth/email-status", { email: uniqueEmail() });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe("rate_limited");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);

    const elsewhere = new TestClient(t.app, "198.51.100.4");
    const other = await elsewhere.post("/api/user-auth/email-status", { email: uniqueEmail() });
    expect(other.statusCode).toBe(200);
  });
});

describe("the debug and test routes of the route table", () => {
  it.each(DEBUG_PATHS)("serves %s outside production", async (url) => {
    const response = await t.app.inject({ method: "GET", url });
    expect(response.statusCode).toBe(200);
  });

  it("answers every one with 404 under NODE_ENV=production, and 200 again with DEBUG_ROUTES=1", async () => {
    const production = await appOnSameDb({ NODE_ENV: "production" });
    const opted = await appOnSameDb({ NODE_ENV: "production", DEBUG_ROUTES: "1" });
    try {
      for (const url of DEBUG_PATHS) {
        const hidden = await production.inject({ method: "GET", url });
        expect(hidden.statusCode, url).toBe(404);
        expect(hidden.headers["x-robots-tag"]).toBe("noindex");
        expect((await opted.inject({ method: "GET", url })).statusCode, url).toBe(200);
      }
      // The rest of the app is unchanged.
      expect((await production.inject({ method: "GET", url: "/login" })).statusCode).toBe(200);
    } finally {
      await production.close();
      await opted.close();
    }
  });

  it("stops the start-up on a DEBUG_ROUTES value that is not a boolean", () => {
    expect(() => testConfig({ DEBUG_ROUTES: "sometimes" })).toThrow(/DEBUG_ROUTES/);
  });
});

describe("the blog", () => {
  it("serves the built posts' pages and 404s any other slug", async () => {
    for (const slug of ["newer-post", "older-post"]) {
      const response = await t.app.inject({ method: "GET", url: `/blog/${slug}` });
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain("noindex");
    }
    const missing = await t.app.inject({ method: "GET", url: "/blog/no-such-post" });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers["x-robots-tag"]).toBe("noindex");
  });

  it("writes an RSS 2.0 feed, newest first, with absolute links and escaped text", async () => {
    const response = await t.app.inject({ method: "GET", url: "/blog/rss.xml" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/rss+xml; charset=utf-8");
    const body = response.body;
    expect(body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0"/);
    expect(body).toContain("<link>https://cohort.example/blog</link>");
    const items = [...body.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((m) => m[1] ?? "");
    expect(items).toHaveLength(2);
    expect(items[0]).toContain("<title>Credits &amp; &lt;holds&gt;</title>");
    expect(items[0]).toContain("<link>https://cohort.example/blog/newer-post</link>");
    expect(items[0]).toContain("<pubDate>Fri, 20 Nov 2026 12:00:00 GMT</pubDate>");
    expect(items[0]).toContain("<description>What a &quot;hold&quot; is.</description>");
    expect(items[1]).toContain("<link>https://cohort.example/blog/older-post</link>");
  });

  it("has no post pages and an empty feed when the build has no posts", async () => {
    const bare = await appOnSameDb();
    try {
      expect((await bare.inject({ method: "GET", url: "/blog/newer-post" })).statusCode).toBe(404);
      const feed = await bare.inject({ method: "GET", url: "/blog/rss.xml" });
      expect(feed.statusCode).toBe(200);
      expect(feed.body).not.toContain("<item>");
    } finally {
      await bare.close();
    }
  });
});

describe("join-session and leave-session with a bare session id (the API)", () => {
  it("joins and leaves with the id alone, as with { sessionId }", async () => {
    // SIGNUP_LIMIT_PER_HOUR=2 in this file: each account comes from a network of its own.
    const owner = await signUp(new TestClient(t.app, "203.0.113.1"));
    const stranger = await signUp(new TestClient(t.app, "203.0.113.2"));
    const session = await createSession(owner.client);
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const opener = socketOpener(() => url);
    const ready = (socket: Socket) =>
      new Promise<void>((resolve, reject) => {
        socket.once(SERVER_EVENTS.ready, () => resolve());
        socket.once("connect_error", reject);
      });
    try {
      const mine = opener.open({ token: owner.token });
      const theirs = opener.open({ token: stranger.token });
      await Promise.all([ready(mine), ready(theirs)]);

      const joined: TJoinSessionAck = await mine
        .timeout(5_000)
        .emitWithAck(CLIENT_EVENTS.joinSession, session.id);
      expect(joined).toEqual({ ok: true, backlog: [], lastSeq: 0, hasMore: false });
      const rooms = async () => {
        const [server] = await t.app.realtime.io.in(`user:${owner.user.id}`).fetchSockets();
        return [...(server?.rooms ?? [])].filter((room) => room.startsWith("chat:"));
      };
      expect(await rooms()).toEqual([`chat:${session.id}`]);

      expect(await mine.timeout(5_000).emitWithAck(CLIENT_EVENTS.leaveSession, session.id)).toEqual(
        { ok: true },
      );
      expect(await rooms()).toEqual([]);

      // The bare form is checked like the object form: only the owner joins.
      expect(
        await theirs.timeout(5_000).emitWithAck(CLIENT_EVENTS.joinSession, session.id),
      ).toEqual({ ok: false, error: "not_found" });
      expect(await mine.timeout(5_000).emitWithAck(CLIENT_EVENTS.joinSession, 42)).toEqual({
        ok: false,
        error: "invalid_request",
      });
      expect(await mine.timeout(5_000).emitWithAck(CLIENT_EVENTS.leaveSession, [])).toEqual({
        ok: false,
      });
    } finally {
      opener.closeAll();
    }
  });
});
