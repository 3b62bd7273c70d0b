import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createWebDistFixture, type TestApp } from "./support/app";

let t: TestApp;

beforeAll(async () => {
  const dist = createWebDistFixture();
  mkdirSync(path.join(dist, "artifact-lib"));
  writeFileSync(path.join(dist, "artifact-lib", "mermaid.js"), "globalThis.mermaid = {};");
  t = await createTestApp({ WEB_DIST_DIR: dist });
  await t.app.ready();
});

afterAll(async () => {
  await t?.close();
});

describe("the artifact preview frame (decision 063)", () => {
  it("is served with its own policy: sandboxed, no network, scripts from the library path only", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/artifact-frame",
      headers: { host: "cohort.test:8080" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers["content-security-policy"]).toBe(
      "sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline' http://cohort.test:8080/artifact-lib/; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'",
    );
    expect(res.headers["x-frame-options"]).toBe("SAMEORIGIN");
    expect(res.body).toContain('data.type !== "cohort-artifact"');
    expect(res.body).toContain("event.source !== parent || event.origin !== origin");
  });

  it("serves a library to the frame's opaque origin (CORS and CORP allow it), and no other file that way", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/artifact-lib/mermaid.js",
      headers: { origin: "null" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("globalThis.mermaid = {};");
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.headers["cross-origin-resource-policy"]).toBe("cross-origin");
    expect(res.headers["content-type"]).toBe("application/javascript; charset=utf-8");

    const app = await t.app.inject({ method: "GET", url: "/assets/app.js" });
    expect(app.statusCode).toBe(200);
    expect(app.headers["access-control-allow-origin"]).toBeUndefined();
    expect(app.headers["cross-origin-resource-policy"]).toBe("same-origin");
  });

  it("answers 404 for a library the build does not have", async () => {
    const res = await t.app.inject({ method: "GET", url: "/artifact-lib/react.js" });
    expect(res.statusCode).toBe(404);
  });
});
