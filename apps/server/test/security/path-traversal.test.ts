import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, type SignedUp, signUp } from "../support/accounts";
import { createTestApp, type TestApp } from "../support/app";
import type { TestClient } from "../support/client";

/**
 * Advisory class: path traversal, in anything that takes a name. The server serves the built
 * web app from WEB_DIST_DIR and keeps its own files in DATA_DIR; a URL that climbs out of the
 * web directory (`..` in every encoding, backslashes, NUL, a sibling directory whose name
 * starts like it) must never return a file from outside it, and DATA_DIR must be reachable by
 * no URL at all. Ids and names in API paths are looked up, never used as paths: any value in
 * any parameter answers 4xx, never a 5xx or a file. Secret marker files sit where a traversal
 * would land; no answer may contain one.
 */

const ADMIN = { ADMIN_EMAIL: "admin@traversal.test", ADMIN_PASSWORD: "traversal-admin-passphrase" };

/** What the files outside the web directory hold; no name in any URL contains it. */
const MARKER = `secret-${randomBytes(8).toString("hex")}`;
const DATA_FILE = "cohort-data-marker.txt";

let t: TestApp;
let root: string;
let user: SignedUp;
let admin: TestClient;

/**
 * root/
 *   web/            WEB_DIST_DIR: index.html, assets/app.js
 *   web-private/    a sibling whose name starts with "web" (a prefix check would let it in)
 *   data/           DATA_DIR
 *   secret.txt      next to the web directory
 */
beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "cohort-traversal-"));
  const web = path.join(root, "web");
  mkdirSync(path.join(web, "assets"), { recursive: true });
  writeFileSync(
    path.join(web, "index.html"),
    '<!doctype html><html><head><title>Cohort</title></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(path.join(web, "assets", "app.js"), "console.log('cohort');");
  mkdirSync(path.join(root, "web-private"));
  writeFileSync(path.join(root, "web-private", "secret.txt"), MARKER);
  mkdirSync(path.join(root, "data"));
  writeFileSync(path.join(root, "data", "secret.txt"), MARKER);
  writeFileSync(path.join(root, "secret.txt"), MARKER);
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: MARKER }));

  t = await createTestApp({ ...ADMIN, WEB_DIST_DIR: web, DATA_DIR: path.join(root, "data") });
  // Whatever DATA_DIR the app keeps (it may add its own files), a marker is in it too.
  writeFileSync(path.join(t.app.config.dataDir, DATA_FILE), MARKER);
  user = await signUp(t.app);
  admin = await adminClient(t.app, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
});

afterAll(async () => {
  await t?.close();
});

/** `..` spelt every way a server might decode (or fail to decode) it. */
const DOTDOT = ["..", "%2e%2e", "%2E%2E", ".%2e", "%2e.", "%252e%252e", "%c0%ae%c0%ae", "..%00"];
const SLASH = ["/", "%2f", "%2F", "%252f", "\\", "%5c", "%5C", "%255c"];

function traversals(target: string): string[] {
  const urls = new Set<string>();
  for (const dots of DOTDOT) {
    for (const slash of SLASH) {
      const up = `${dots}${slash}`;
      urls.add(`/${up}${target}`);
      urls.add(`/assets/${up}${up}${target}`);
      urls.add(`/assets${slash}${up}${up}${target}`);
      urls.add(`/chat/${up}${up}${up}${target}`);
    }
  }
  urls.add(`//..//..//${target}`);
  urls.add(`/./../${target}`);
  urls.add(`/assets/../../${target}%00.js`);
  urls.add(`/assets/../../${target}%00`);
  urls.add(`/assets/%2e%2e/%2e%2e/${target}?x=1`);
  return [...urls];
}

const TARGETS = [
  "secret.txt",
  "package.json",
  "data/secret.txt",
  "web-private/secret.txt",
  `data/${DATA_FILE}`,
];

describe("the web app's static files", () => {
  it("serve what is in the web directory", async () => {
    const asset = await t.app.inject({ method: "GET", url: "/assets/app.js" });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe("console.log('cohort');");
  });

  it("never serve a file outside it, whatever the encoding", async () => {
    let tried = 0;
    for (const target of TARGETS) {
      for (const url of traversals(target)) {
        tried += 1;
        const response = await t.app.inject({ method: "GET", url });
        expect(response.statusCode, url).toBeLessThan(500);
        expect(response.body, url).not.toContain(MARKER);
        if (response.statusCode === 200) {
          // Anything served is the app's own page, never a file's contents.
          expect(response.headers["content-type"], url).toMatch(/^text\/html/);
          expect(response.body, url).toContain('<div id="root">');
        }
      }
    }
    expect(tried).toBeGreaterThan(1000);
  });

  it("do not serve a sibling directory whose name starts like the web directory", async () => {
    for (const url of [
      "/../web-private/secret.txt",
      "/%2e%2e/web-private/secret.txt",
      "/assets/../../web-private/secret.txt",
      "/..%2fweb-private%2fsecret.txt",
    ]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.body, url).not.toContain(MARKER);
    }
  });
});

describe("DATA_DIR", () => {
  it("is reachable by no URL", async () => {
    const name = DATA_FILE;
    for (const url of [
      `/${name}`,
      `/data/${name}`,
      "/data/secret.txt",
      `/api/data/${name}`,
      `/api/../data/${name}`,
      `/api/%2e%2e/data/${name}`,
      `/../data/${name}`,
      `/%2e%2e/data/${name}`,
      `/..%2fdata%2f${name}`,
      `/assets/..%2f..%2fdata%2f${name}`,
      `/uploads/${name}`,
      `/files/${name}`,
    ]) {
      for (const client of [user.client, admin]) {
        const response = await client.get(url);
        expect(response.statusCode, url).toBeLessThan(500);
        expect(response.body, url).not.toContain(MARKER);
      }
    }
  });
});

describe("names and ids in API paths", () => {
  const HOSTILE = [
    "../../../../etc/passwd",
    "..%2f..%2f..%2fetc%2fpasswd",
    "%2e%2e%2f%2e%2e%2fsecret.txt",
    "..\\..\\secret.txt",
    "secret.txt%00",
    "%00",
    "%",
    "%zz",
    "' OR '1'='1",
    "1;DROP TABLE users",
    "00000000-0000-0000-0000-00000000000g",
    "00000000-0000-4000-8000-000000000000",
    "x".repeat(2000),
    "%F0%9F%92%A9",
    "%ED%A0%80",
    "%C0%AE%C0%AE",
    "NaN",
    "-1",
    "1e309",
  ];

  it("answer 4xx for any value in any parameter of any route, and never a file", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/openapi.json" })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(doc.paths)
      .filter(([p]) => p.includes("{"))
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => [m.toUpperCase(), p] as const));
    routes.push(
      ["GET", "/api/billing/dev-checkout/{id}"],
      ["POST", "/api/billing/dev-checkout/{id}/pay"],
      ["POST", "/api/billing/dev-portal/{action}"],
    );
    expect(routes.length).toBeGreaterThan(12);
    const statuses = new Set<number>();
    for (const [method, template] of routes) {
      for (const value of HOSTILE) {
        const url = template.replace(/\{\w+\}/g, value.replace(/[/?#]/g, encodeURIComponent));
        // Signed in (and an administrator on admin routes), so the handlers see the value.
        const client = template.startsWith("/api/admin/") ? admin : user.client;
        const response = await client.request(
          method as "GET",
          url,
          method === "GET" || method === "DELETE" ? undefined : {},
          { headers: { origin: "http://localhost:3000" } },
        );
        statuses.add(response.statusCode);
        expect(response.statusCode, `${method} ${url}`).toBeGreaterThanOrEqual(400);
        expect(
          response.statusCode,
          `${method} ${url}: ${response.body.slice(0, 200)}`,
        ).toBeLessThan(500);
        expect(response.body).not.toContain(MARKER);
        expect(response.body).not.toContain("root:x:0:0");
      }
    }
    // The values reached the handlers: lookups said 404, schemas 400 (too long a URL, 414).
    expect([...statuses]).toEqual(expect.arrayContaining([400, 404]));
  });
});
