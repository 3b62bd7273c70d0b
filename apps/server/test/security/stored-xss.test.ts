import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, type SignedUp } from "../support/accounts";
import { createTestApp, type TestApp } from "../support/app";
import { createSession, runToEnd, sessionEvents } from "../support/runs";
import { signUpWithCredits } from "../support/runs-credits";
import { fakeDns, parseSse } from "../support/sse";

/**
 * Advisory class: stored (and reflected) cross-site scripting. Anything a user stores comes
 * back to a browser later: session titles and descriptions, chat messages, profile names,
 * CoChat messages, a key's base URL, and what models write about them (the simulator draws
 * the prompt into an SVG). The server's part of the defence is that such text only ever
 * leaves as JSON (never HTML the browser would render), verbatim (the web app escapes it
 * once, where it renders), with `nosniff` so no browser second-guesses the type; that HTML
 * pages never echo the request; that their CSP forbids inline script; and that the SVG the
 * simulator draws escapes the prompt. Each check here fails if one of those goes.
 */

const ADMIN = { ADMIN_EMAIL: "admin@xss.test", ADMIN_PASSWORD: "xss-admin-passphrase" };

/** Markup that would run if any of it reached a page unescaped. */
const PAYLOADS = [
  `<script>alert("xss")</script>`,
  `<img src=x onerror=alert(1)>`,
  `"><svg/onload=alert(1)>`,
  `</title><script>alert(1)</script>`,
  `<a href="javascript:alert(1)">x</a>`,
  `&lt;b&gt; already &amp; escaped`,
  `{{constructor.constructor('alert(1)')()}}`,
  `<!--`,
];

let t: TestApp;
let user: SignedUp;

beforeAll(async () => {
  t = await createTestApp(
    { ...ADMIN, SIMULATOR_TOKENS_PER_SECOND: "0" },
    { resolveHost: fakeDns({ "llm.example.test": ["93.184.216.34"] }) },
  );
  user = await signUpWithCredits(t.app, 500);
  const admin = await adminClient(t.app, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
  const granted = await admin.put(`/api/admin/users/${user.user.id}/tier`, { tier: "pro" });
  expect(granted.statusCode).toBe(200);
});

afterAll(async () => {
  await t?.close();
});

/** A JSON answer the browser will not sniff into anything else. */
function expectJson(response: LightMyRequestResponse, what: string) {
  expect(response.headers["content-type"], what).toMatch(/^application\/json/);
  expect(response.headers["x-content-type-options"], what).toBe("nosniff");
}

/** The Content-Security-Policy of a page: scripts from our origin only, none inline. */
function expectStrictCsp(response: LightMyRequestResponse, what: string) {
  const csp = String(response.headers["content-security-policy"] ?? "");
  const directives = new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map((parts) => [parts[0] as string, parts.slice(1)]),
  );
  const scripts = directives.get("script-src") ?? directives.get("default-src");
  expect(scripts, what).toBeDefined();
  expect(scripts, what).not.toContain("'unsafe-inline'");
  expect(scripts, what).not.toContain("'unsafe-eval'");
  expect(scripts, what).not.toContain("*");
  expect(
    scripts?.some((s) => s === "data:" || s === "blob:"),
    what,
  ).toBe(false);
  expect(directives.get("object-src"), what).toEqual(["'none'"]);
  expect(directives.get("base-uri"), what).toEqual(["'self'"]);
  expect(response.headers["x-content-type-options"], what).toBe("nosniff");
}

describe("text a user stores comes back as JSON, verbatim", () => {
  it("session titles and descriptions", async () => {
    for (const payload of PAYLOADS) {
      const session = await createSession(user.client, {
        title: payload,
        description: `Notes: ${payload}`,
      });
      expect(session.title).toBe(payload);
      const read = await user.client.get(`/api/sessions/${session.id}`);
      expectJson(read, payload);
      expect(read.json().session).toMatchObject({
        title: payload,
        description: `Notes: ${payload}`,
      });
      const renamed = await user.client.request("PATCH", `/api/sessions/${session.id}`, {
        title: `${payload} (2)`,
      });
      expectJson(renamed, payload);
      expect(renamed.json().session.title).toBe(`${payload} (2)`);
    }
    const list = await user.client.get("/api/sessions");
    expectJson(list, "list");
    const titles = (list.json().sessions as { title: string }[]).map((s) => s.title);
    for (const payload of PAYLOADS) expect(titles).toContain(`${payload} (2)`);
  });

  it("chat messages, in the session detail and in the run's events", async () => {
    const session = await createSession(user.client, { title: "Messages" });
    const message = PAYLOADS.join(" ");
    await runToEnd(user.client, session.id, message);
    const detail = await user.client.get(`/api/sessions/${session.id}`);
    expectJson(detail, "detail");
    const contents = (detail.json().messages as { content: string }[]).map((m) => m.content);
    expect(contents).toContain(message);
    const events = await user.client.get(`/api/sessions/${session.id}/events`);
    expectJson(events, "events");
    expect((await sessionEvents(user.client, session.id)).length).toBeGreaterThan(0);
  });

  it("profile names", async () => {
    const name = `<img src=x onerror=alert(1)>`;
    const updated = await user.client.put("/api/users/profile", {
      firstName: name,
      lastName: `"><script>x</script>`,
      displayName: `</title><script>alert(1)</script>`,
    });
    expectJson(updated, "update");
    const profile = await user.client.get("/api/users/profile");
    expectJson(profile, "profile");
    expect(profile.json().user).toMatchObject({
      firstName: name,
      lastName: `"><script>x</script>`,
      displayName: `</title><script>alert(1)</script>`,
    });
  });

  it("a profile photo is an http(s) address, never a script or inline document", async () => {
    for (const photo of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      " javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "data:image/svg+xml,<svg onload=alert(1)>",
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
    ]) {
      for (const field of ["photoURL", "avatar"]) {
        const response = await user.client.put("/api/users/profile", { [field]: photo });
        expect(response.statusCode, `${field} ${photo}`).toBe(400);
        expect(response.json().error.code).toBe("validation_failed");
      }
    }
    const profile = await user.client.get("/api/users/profile");
    expect(profile.json().user.photoURL).toBeNull();
  });

  it("CoChat messages and the conversation title made from them", async () => {
    const content = PAYLOADS.slice(0, 4).join(" ");
    const chat = await user.client.post("/api/cochat/chat", {
      messages: [{ role: "user", content }],
    });
    expect(chat.statusCode).toBe(200);
    expect(chat.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(chat.headers["x-content-type-options"]).toBe("nosniff");
    const id = parseSse(chat.body)[0]?.data.session_id as string;
    const conversation = await user.client.get(`/api/cochat/conversations/${id}`);
    expectJson(conversation, "conversation");
    expect(conversation.json().messages[0].content).toBe(content);
    const list = await user.client.get("/api/cochat/conversations");
    expectJson(list, "conversations");
    const title = (list.json().conversations as { id: string; title: string }[]).find(
      (c) => c.id === id,
    )?.title;
    expect(content.startsWith(title?.replace(/…$/, "") ?? "-")).toBe(true);
  });

  it("a key's base URL, which is stored normalised: no markup survives in it", async () => {
    const saved = await user.client.put("/api/users/api-keys", {
      provider: "openai-compatible",
      apiKey: "k",
      baseURL: `http://llm.example.test/v1/"><script>alert(1)</script>`,
    });
    expect(saved.statusCode).toBe(200);
    expectJson(saved, "save");
    const listed = await user.client.get("/api/users/api-keys");
    expectJson(listed, "keys");
    const { baseURL } = (listed.json().keys as { baseURL?: string }[])[0] ?? {};
    expect(baseURL).toBe("http://llm.example.test/v1/%22%3E%3Cscript%3Ealert(1)%3C/script%3E");
  });

  it("error messages that quote the request are JSON too", async () => {
    const paths = [
      "/api/<script>alert(1)</script>",
      "/api/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
      "/api/sessions/<img src=x onerror=alert(1)>/nothing",
    ];
    for (const url of paths) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(404);
      expectJson(response, url);
      expect(response.json().error.code).toBe("not_found");
    }
    // A method no page answers, on a page path: the JSON 404 as well, not an HTML page.
    const posted = await t.app.inject({ method: "POST", url: "/<script>alert(1)</script>" });
    expect(posted.statusCode).toBe(404);
    expectJson(posted, "POST page");
    // Validation errors name the field, and are JSON.
    const invalid = await user.client.post("/api/sessions", {
      title: 42,
      description: PAYLOADS[0],
    });
    expect(invalid.statusCode).toBe(400);
    expectJson(invalid, "validation");
  });
});

describe("HTML pages", () => {
  const indexHtml = () => t.app.inject({ method: "GET", url: "/" }).then((r) => r.body);

  it("never echo the request, and forbid inline script", async () => {
    const index = await indexHtml();
    expect(index).toContain('<div id="root">');
    for (const url of [
      "/",
      "/dashboard?q=<script>alert(1)</script>",
      "/chat/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
      "/<script>alert(1)</script>",
      "/%22%3E%3Csvg%2Fonload%3Dalert(1)%3E",
      "/login?redirect=javascript:alert(1)",
      "/login#<img src=x onerror=alert(1)>",
    ]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.headers["content-type"], url).toMatch(/^text\/html/);
      expectStrictCsp(response, url);
      // The page is the built index.html, unchanged but for a noindex tag on unknown paths.
      expect(response.body.replace('<meta name="robots" content="noindex" />', ""), url).toBe(
        index,
      );
      for (const marker of ["alert(1)", "onerror", "onload", "javascript:"]) {
        expect(response.body, url).not.toContain(marker);
      }
    }
  });

  it("the dev checkout's own HTML page is under the same CSP and escapes what it shows", async () => {
    const started = await user.client.post("/api/billing/purchase-credits", {
      packageId: "pack_100",
    });
    const page = await user.client.get(started.json().checkout_url);
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expectStrictCsp(page, "dev checkout");
    expect(page.body).not.toMatch(/<script|\son\w+\s*=/i);
  });
});

describe("the simulator's SVG illustration", () => {
  it("draws markup in the prompt as text, never as markup", async () => {
    // The simulator's subject keeps the first 72 characters or so: the quotes come first.
    const prompt = `"quotes" 'too' & <script>alert(1)</script><image href="x" onload="alert(2)"/>`;
    const chat = await user.client.post("/api/cochat/chat", {
      model: "covision",
      messages: [{ role: "user", content: prompt }],
    });
    const events = parseSse(chat.body);
    expect(events.at(-1)?.event).toBe("done");
    const text = events
      .filter((e) => e.event === "delta")
      .map((e) => e.data.text)
      .join("");
    const dataUrl = /data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/.exec(text)?.[1];
    expect(dataUrl).toBeDefined();
    const svg = Buffer.from(dataUrl as string, "base64").toString("utf8");
    // Only the drawing's own elements, no script and no event handler attribute.
    const elements = new Set([...svg.matchAll(/<\/?([a-zA-Z]+)/g)].map((m) => m[1]));
    expect([...elements].sort()).toEqual(
      ["circle", "defs", "linearGradient", "polygon", "rect", "stop", "svg", "title"].sort(),
    );
    // …and only its own attributes (the prompt's `onload="…"` is text: its quotes are escaped).
    const attributes = new Set([...svg.matchAll(/\s([\w:-]+)="/g)].map((m) => m[1]));
    expect([...attributes].sort()).toEqual(
      [
        "aria-label",
        "cx",
        "cy",
        "fill",
        "height",
        "id",
        "offset",
        "opacity",
        "points",
        "r",
        "role",
        "stop-color",
        "viewBox",
        "width",
        "x1",
        "x2",
        "xmlns",
        "y1",
        "y2",
      ].sort(),
    );
    // The prompt is there, as escaped text.
    expect(svg).toContain("&#60;script&#62;alert(1)&#60;/script&#62;");
    expect(svg).toContain("&#39;too&#39;");
    expect(svg).toContain("&#60;image href=&#34;x&#34;");
    expect(svg).toContain(" &#38; ");
  });
});
