import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../src/modules/tools/tool-definition";
import { createTestApp, type TestApp } from "../support/app";
import { fakeDns } from "../support/sse";
import * as forms from "../support/ssrf-forms";
import { callTool, toolOf } from "../support/tools";
import { type StandIn, startSite } from "../support/web-stand-ins";

/**
 * Advisory class: server-side request forgery through read_url (decision 061). A model is
 * asked to read a URL that a user, a page or a search result handed it; whoever wrote that
 * URL aims it back into Cohort's own network in whatever spelling slips past a check, or at a
 * name whose DNS answer or redirect points there. Every form the security suite knows
 * (support/ssrf-forms.ts, shared with security/ssrf.test.ts) must be refused with its reason.
 *
 * Two local sites stand in for the network: `outside` on 127.0.0.1 (made "public" for the
 * test by READ_URL_ALLOWED_NETWORKS=127.0.0.1/32) and `inside` on 127.0.0.2, which no setting
 * allows; any request `inside` records is a forgery that got through.
 */

let strict: TestApp;
let lan: TestApp;
let wide: TestApp;
let outside: StandIn;
let inside: StandIn;

const lanDns: Record<string, string[]> = {};
const redirects: Record<string, string> = {};

beforeAll(async () => {
  // The outside site; /to-<n> redirects to the location the test chose.
  const pages: Parameters<typeof startSite>[0] = {
    "/page": { body: "<h1>Public page</h1><p>Nothing secret here.</p>" },
    "/loop": { status: 302, headers: { location: "/loop" } },
  };
  outside = await startSite(
    new Proxy(pages, {
      get: (target, path: string) =>
        redirects[path] ? { status: 302, headers: { location: redirects[path] } } : target[path],
    }),
  );
  inside = await startSite({ "/secret": { body: "<p>internal credentials</p>" } }, "127.0.0.2");
  [strict, lan, wide] = await Promise.all([
    // Public addresses only; a LAN allowance for users' model servers opens nothing here.
    createTestApp(
      { USER_BASE_URL_ALLOWED_NETWORKS: "127.0.0.0/8,10.0.0.0/8" },
      {
        resolveHost: fakeDns(forms.PUBLIC_ONLY_DNS),
      },
    ),
    createTestApp(
      { READ_URL_ALLOWED_NETWORKS: "127.0.0.1/32" },
      { resolveHost: (hostname) => fakeDns(lanDns)(hostname) },
    ),
    // An operator who allows every network: cloud metadata must still be refused.
    createTestApp({ READ_URL_ALLOWED_NETWORKS: "0.0.0.0/0,::/0" }),
  ]);
});

afterAll(async () => {
  await Promise.all([strict?.close(), lan?.close(), wide?.close()]);
  await Promise.all([outside?.close(), inside?.close()]);
});

beforeEach(() => {
  outside.reset();
  inside.reset();
  for (const path of Object.keys(redirects)) delete redirects[path];
  forms.resetLanDns(lanDns, "news.example.test");
});

async function read(t: TestApp, url: string) {
  const tool: ToolDefinition = await toolOf(t.app, "read_url");
  return (await callTool(tool, { url })).output;
}

async function expectRefused(t: TestApp, url: string, reason: string) {
  const output = await read(t, url);
  expect(output.isError, url).toBe(true);
  expect(output.text, url).toMatch(/^read_url refused .+ read_url reads public web pages only\.$/);
  expect((output.data as { failure: string }).failure, url).toBe(reason);
  expect(output.sources, url).toBeUndefined();
}

describe("read_url and addresses that point inward", () => {
  it.each(Object.entries(forms.INWARD_HOSTS))(
    "refuses every form of a %s address",
    async (reason, hosts) => {
      for (const host of hosts) {
        await expectRefused(strict, `http://${host}/secret`, reason);
        await expectRefused(strict, `https://${host}:8443/secret`, reason);
      }
    },
  );

  it("says which kind of address it refused", async () => {
    const output = await read(strict, "http://2130706433/secret");
    expect(output.text).toBe(
      "read_url refused http://127.0.0.1/secret: it is a loopback address (this server itself). read_url reads public web pages only.",
    );
  });

  it("refuses every form of every cloud metadata address, whatever the operator allows", async () => {
    for (const t of [strict, wide, lan]) {
      for (const host of forms.ALL_METADATA_HOSTS) {
        await expectRefused(t, `http://${host}/latest/meta-data/`, "metadata");
      }
    }
  });

  it("reads what the operator allowed, and nothing next to it", async () => {
    const page = await read(lan, `http://127.0.0.1:${outside.port}/page`);
    expect(page.isError).toBeUndefined();
    expect(page.text).toContain("Nothing secret here.");
    // The same address spelt another way is the same address: allowed too.
    expect((await read(lan, `http://2130706433:${outside.port}/page`)).isError).toBeUndefined();
    for (const host of forms.LOOPBACK_BESIDE_ALLOWED) {
      await expectRefused(lan, `http://${host}:${inside.port}/secret`, "loopback");
    }
    await expectRefused(lan, "http://10.0.0.1/secret", "private");
    expect(inside.requests).toHaveLength(0);
  });

  it("refuses other schemes and user information", async () => {
    for (const url of [
      "file:///etc/passwd",
      "ftp://public.example.test/file",
      "gopher://public.example.test:70/_GET",
      "data:text/html,<p>hi</p>",
      "javascript:alert(1)",
      "ws://public.example.test/socket",
    ]) {
      await expectRefused(strict, url, "scheme");
    }
    await expectRefused(strict, "http://user:pass@public.example.test/", "credentials");
    await expectRefused(strict, "not a url", "invalid");
  });
});

describe("read_url and DNS answers that point inward", () => {
  it("refuses a name whose answer is private, loopback or metadata, in any form", async () => {
    await expectRefused(lan, "http://inward.example.test/", "private");
    await expectRefused(lan, `http://inside.example.test:${inside.port}/secret`, "loopback");
    await expectRefused(lan, `http://mapped-loopback.example.test:${inside.port}/`, "loopback");
    await expectRefused(lan, "http://meta.example.test/latest", "metadata");
    await expectRefused(lan, "http://meta-nat64.example.test/latest", "metadata");
    await expectRefused(lan, "http://nowhere.example.test/", "dns");
    expect(inside.requests).toHaveLength(0);
  });

  it("refuses a name with one allowed and one inward answer", async () => {
    await expectRefused(lan, "http://mixed.example.test/", "private");
    await expectRefused(lan, "http://mixed-meta.example.test/", "metadata");
    await expectRefused(lan, `http://mixed-inside.example.test:${inside.port}/secret`, "loopback");
    await expectRefused(strict, "http://split.example.test/", "loopback");
    await expectRefused(strict, "http://split6.example.test/", "loopback");
    await expectRefused(strict, "http://localhost/", "loopback");
    expect(inside.requests).toHaveLength(0);
  });

  it("checks the name again on every read (DNS rebinding) and never connects inward", async () => {
    lanDns["rebind.example.test"] = ["127.0.0.1"];
    const url = `http://rebind.example.test:${outside.port}/page`;
    expect((await read(lan, url)).text).toContain("Nothing secret here.");
    lanDns["rebind.example.test"] = ["127.0.0.2"];
    await expectRefused(lan, `http://rebind.example.test:${inside.port}/secret`, "loopback");
    lanDns["rebind.example.test"] = ["127.0.0.1", "127.0.0.2"];
    await expectRefused(lan, `http://rebind.example.test:${inside.port}/secret`, "loopback");
    expect(outside.requests).toHaveLength(1);
    expect(inside.requests).toHaveLength(0);
  });
});

describe("read_url and redirects from an allowed site", () => {
  const start = (n: number) => `http://news.example.test:${outside.port}/to-${n}`;

  it("re-checks every hop and never follows one inward", async () => {
    const targets: [string, string][] = [
      [`http://127.0.0.2:${inside.port}/secret`, "loopback"],
      [`http://2130706434:${inside.port}/secret`, "loopback"],
      [`http://[::ffff:127.0.0.2]:${inside.port}/secret`, "loopback"],
      [`http://[64:ff9b::7f00:2]:${inside.port}/secret`, "loopback"],
      [`http://inside.example.test:${inside.port}/secret`, "loopback"],
      [`http://mixed-inside.example.test:${inside.port}/secret`, "loopback"],
      ["http://10.0.0.8/secret", "private"],
      ["http://0x0a000001/secret", "private"],
      ["http://169.254.169.254/latest/meta-data/", "metadata"],
      ["http://[fd00:ec2::254]/latest/meta-data/", "metadata"],
      ["http://[64:ff9b::a83f:8110]/machine", "metadata"],
      ["file:///etc/passwd", "scheme"],
    ];
    for (const [i, [location, reason]] of targets.entries()) {
      outside.reset();
      redirects[`/to-${i}`] = location;
      await expectRefused(lan, start(i), reason);
      expect(
        outside.requests.map((r) => r.path),
        location,
      ).toEqual([`/to-${i}`]);
    }
    expect(inside.requests).toHaveLength(0);
  });

  it("checks the last hop of a chain as strictly as the first", async () => {
    redirects["/to-1"] = "/to-2";
    redirects["/to-2"] = `http://inside.example.test:${inside.port}/secret`;
    await expectRefused(lan, start(1), "loopback");
    expect(outside.requests.map((r) => r.path)).toEqual(["/to-1", "/to-2"]);
    expect(inside.requests).toHaveLength(0);
  });

  it("stops a redirect loop", async () => {
    await expectRefused(lan, `http://news.example.test:${outside.port}/loop`, "redirects");
    expect(outside.requests).toHaveLength(6);
  });
});
