import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handmadeExport } from "../test-support/export-fixtures";
import { createUser, signInContext } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";

/**
 * Artifacts in a real browser (decision 063): an answer's HTML page, Mermaid diagram and
 * their versions previewed in the sandboxed frame; a planted script inside a preview that
 * tries to read the app's cookies and storage and to reach a server (which counts what
 * arrives); a shared link that shows the artifacts; the tabs by keyboard; axe on all of it.
 */
let browser: Browser;
let counter: http.Server;
let counterUrl = "";
const arrived: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  counter = http.createServer((request, response) => {
    arrived.push(`${request.method} ${request.url}`);
    response.setHeader("access-control-allow-origin", "*");
    response.end("counted");
  });
  counter.on("upgrade", (request, socket) => {
    arrived.push(`UPGRADE ${request.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => counter.listen(0, "127.0.0.1", resolve));
  counterUrl = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => counter?.close(resolve));
});

const desktop = { viewport: { width: 1360, height: 960 } };

async function call<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseURL()}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** A page whose script tries every way out it can think of, and says what it could read. */
function plantedPage(url: string): string {
  return `<!doctype html>
<html lang="en">
<head><title>Planted page</title></head>
<body>
<h1>Planted page</h1>
<p id="out">not run</p>
<script>
  function attempt(name, read) {
    try { return name + " read " + read(); } catch (error) { return name + " blocked"; }
  }
  var results = [
    attempt("cookie", function () { return document.cookie; }),
    attempt("storage", function () { return localStorage.getItem("planted"); }),
    attempt("session", function () { return sessionStorage.length; }),
    attempt("parent", function () { return parent.document.cookie; }),
  ];
  try { fetch("${url}/fetch").catch(function () {}); } catch (error) {}
  try { var xhr = new XMLHttpRequest(); xhr.open("GET", "${url}/xhr"); xhr.send(); } catch (error) {}
  try { new Image().src = "${url}/image"; } catch (error) {}
  try { navigator.sendBeacon("${url}/beacon", "x"); } catch (error) {}
  try { new WebSocket("${url.replace("http", "ws")}/socket"); } catch (error) {}
  try { new EventSource("${url}/events"); } catch (error) {}
  try { var s = document.createElement("script"); s.src = "${url}/script"; document.head.appendChild(s); } catch (error) {}
  try { var l = document.createElement("link"); l.rel = "stylesheet"; l.href = "${url}/style"; document.head.appendChild(l); } catch (error) {}
  try { window.open("${url}/popup"); } catch (error) {}
  try { var f = document.createElement("form"); f.action = "${url}/form"; f.method = "post"; document.body.appendChild(f); f.submit(); } catch (error) {}
  document.getElementById("out").textContent = results.join(", ");
</script>
</body>
</html>`;
}

const COUNTER_COMPONENT = `import { useState } from "react";

export default function Counter() {
  const [count, setCount] = useState(0);
  return <button type="button" onClick={() => setCount(count + 1)}>Borrowed {count} times</button>;
}`;

const DIAGRAM = "flowchart LR\n  Borrow[Borrow a book] --> Return[Return it]";

function fence(lang: string, code: string): string {
  return `\`\`\`${lang}\n${code}\n\`\`\``;
}

/** The v1 and v2 of one page (same title), so the answer carries an artifact with versions. */
const PRICING_V1 =
  '<!doctype html>\n<html lang="en">\n<head><title>Pricing</title></head>\n<body>\n<h1>Pricing</h1>\n<p>Starter: free</p>\n</body>\n</html>';
const PRICING_V2 = PRICING_V1.replace(
  "<p>Starter: free</p>",
  "<p>Starter: free</p>\n<p>Pro: $29</p>",
);

async function importSession(token: string, answer: string, title: string): Promise<string> {
  const imported = await call<{ session_id: string }>(
    token,
    "POST",
    "/api/sessions/import",
    handmadeExport({ title, answer }),
  );
  return imported.session_id;
}

/** Console lines the preview's policy writes when it refuses the planted requests. */
const REFUSALS = [
  /violates the following Content Security Policy directive/,
  /Refused to connect/,
  /Fetch API cannot load/,
  /Blocked form submission/,
  /Blocked opening/,
  /Failed to load resource/,
];

function previewOf(page: Page, scope = page.getByTestId("artifact").first()) {
  return scope.getByTestId("artifact-frame");
}

describe("artifacts", () => {
  it("turns the simulated Coder's HTML page into an artifact a run's viewer can preview", async () => {
    const user = await createUser();
    const { session } = await call<{ session: { id: string } }>(
      user.token,
      "POST",
      "/api/sessions",
      {
        title: "Book club",
        manual_agent_selection: true,
        agent_preferences: {
          coder: { enabled: true, model: "cologic" },
          critic: { enabled: true, model: "coreason" },
        },
      },
    );
    await call(user.token, "POST", "/api/ai/chat", {
      session_id: session.id,
      message: "Make an HTML page for our book club.",
    });
    await expect
      .poll(
        async () =>
          (
            await call<{ runs: { status: string }[] }>(
              user.token,
              "GET",
              `/api/sessions/${session.id}`,
            )
          ).runs[0]?.status,
        { timeout: 90_000, interval: 250 },
      )
      .toBe("completed");
    const guarded = await openPage(browser, desktop);
    const { page } = guarded;
    await signInContext(page.context(), user.token);
    await page.goto(`/chat/${session.id}`);
    const lane = page.locator('[data-testid="lane-output"]').first();
    const artifact = lane.locator('[data-testid="artifact"][data-kind="html"]');
    await artifact.waitFor();
    await artifact.getByRole("tab", { name: "Preview" }).click();
    const inside = page.frameLocator('[data-testid="artifact-frame"]');
    await inside.getByRole("heading", { level: 1 }).waitFor();
    expect(await inside.getByRole("heading", { level: 2, name: "Get started" }).count()).toBe(1);
    await page.getByTestId("artifacts-button").click();
    await expect
      .poll(async () => (await page.getByTestId("artifact-item").allInnerTexts())[0] ?? "")
      .toMatch(/\nHTML page · latest by (Coder|Answer)( \(revision\))?\n\d versions?$/);
    guarded.expectNoErrors();
    await guarded.close();
  }, 150_000);

  it("previews an HTML page whose script can read neither the app's cookies nor its storage, nor reach any server", async () => {
    const user = await createUser();
    const sessionId = await importSession(
      user.token,
      `Here is the page:\n\n${fence("html", plantedPage(counterUrl))}\n\nDone.`,
      "Planted",
    );
    const guarded = await openPage(browser, desktop);
    const { page } = guarded;
    await signInContext(page.context(), user.token);
    await page
      .context()
      .addCookies([{ name: "planted", value: "visible", url: baseURL(), sameSite: "Lax" }]);
    await page.goto(`/chat/${sessionId}`);
    await page.evaluate(() => localStorage.setItem("planted", "secret"));
    // The app's page itself can read both: they are there to be stolen.
    expect(await page.evaluate(() => document.cookie)).toContain("planted=visible");
    expect(await page.evaluate(() => localStorage.getItem("planted"))).toBe("secret");

    const artifact = page.getByTestId("artifact").first();
    await artifact.waitFor();
    expect(await artifact.getAttribute("data-kind")).toBe("html");
    // Code first; the preview (and its frame) only once asked for.
    expect(await artifact.getByRole("tab", { name: "Code" }).getAttribute("aria-selected")).toBe(
      "true",
    );
    expect(await previewOf(page).count()).toBe(0);
    await artifact.getByRole("tab", { name: "Preview" }).click();

    const frame = previewOf(page);
    expect(await frame.getAttribute("sandbox")).toBe("allow-scripts");
    expect(await frame.getAttribute("title")).toBe("Preview of Planted page");
    const inside = page.frameLocator('[data-testid="artifact-frame"]');
    await inside.getByRole("heading", { name: "Planted page" }).waitFor();
    await expect
      .poll(() => inside.locator("#out").textContent())
      .toBe("cookie blocked, storage blocked, session blocked, parent blocked");
    // Give anything that slipped out time to land, then count: nothing may have arrived.
    await page.waitForTimeout(1_000);
    expect(arrived).toEqual([]);
    // The counter does count: the test's own request arrives.
    await fetch(`${counterUrl}/control`);
    expect(arrived).toEqual(["GET /control"]);
    arrived.length = 0;
    await screenshot(page, "artifact-html-preview", false);
    guarded.expectNoErrors(REFUSALS);
    await guarded.close();
  }, 120_000);

  it("previews a Mermaid diagram and lists the session's artifacts with their versions and changes", async () => {
    const user = await createUser();
    const sessionId = await importSession(
      user.token,
      [
        "First draft:",
        fence("html", PRICING_V1),
        "With the Pro plan:",
        fence("html", PRICING_V2),
        "The flow:",
        fence("mermaid", DIAGRAM),
        "A counter:",
        fence("jsx", COUNTER_COMPONENT),
        "The loans:",
        fence("csv", 'title,due\n"Dune, part 1",2026-01-05'),
        "The badge:",
        fence(
          "svg",
          '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 80 20"><text x="2" y="15">Open daily</text></svg>',
        ),
        "The rules:",
        fence("markdown", "# Loan rules\n\n- **Three** weeks\n- <b>No</b> fines"),
      ].join("\n\n"),
      "Library",
    );
    const guarded = await openPage(browser, desktop);
    const { page } = guarded;
    await signInContext(page.context(), user.token);
    await page.goto(`/chat/${sessionId}`);

    const diagram = page.locator('[data-testid="artifact"][data-kind="mermaid"]');
    await diagram.getByRole("tab", { name: "Preview" }).click();
    const inside = diagram.frameLocator('[data-testid="artifact-frame"]');
    await inside.locator("#out svg").waitFor({ timeout: 30_000 });
    expect(await inside.locator("#out svg").getByText("Borrow a book").count()).toBe(1);

    // A React component runs (React and the JSX transform from Cohort's library path).
    const component = page.locator('[data-testid="artifact"][data-kind="react"]');
    await component.getByRole("tab", { name: "Preview" }).click();
    const counterFrame = component.frameLocator('[data-testid="artifact-frame"]');
    await counterFrame.getByRole("button", { name: "Borrowed 0 times" }).click();
    await counterFrame.getByRole("button", { name: "Borrowed 1 times" }).waitFor();
    // A CSV file is a table.
    const table = page.locator('[data-testid="artifact"][data-kind="csv"]');
    await table.getByRole("tab", { name: "Preview" }).click();
    await table
      .frameLocator('[data-testid="artifact-frame"]')
      .getByRole("cell", { name: "Dune, part 1" })
      .waitFor();

    // An SVG is a picture; a Markdown document is read by the one Markdown reader (no tags).
    const badge = page.locator('[data-testid="artifact"][data-kind="svg"]');
    await badge.getByRole("tab", { name: "Preview" }).click();
    await badge
      .frameLocator('[data-testid="artifact-frame"]')
      .locator("svg text")
      .getByText("Open daily")
      .waitFor();
    const rules = page.locator('[data-testid="artifact"][data-kind="markdown"]');
    await rules.getByRole("tab", { name: "Preview" }).click();
    const rulesFrame = rules.frameLocator('[data-testid="artifact-frame"]');
    await rulesFrame.getByRole("heading", { level: 1, name: "Loan rules" }).waitFor();
    expect(await rulesFrame.locator("strong").textContent()).toBe("Three");
    expect(await rulesFrame.locator("b").count()).toBe(0);
    await rulesFrame.getByText("<b>No</b> fines").waitFor();

    await page.getByTestId("artifacts-button").click();
    const panel = page.getByTestId("artifacts-panel");
    const items = panel.getByTestId("artifact-item");
    await expect
      .poll(() => items.allInnerTexts())
      .toEqual([
        "Pricing\nHTML page · latest by Answer\n2 versions",
        "Mermaid diagram 1\nMermaid diagram · latest by Answer\n1 version",
        "Counter\nReact component · latest by Answer\n1 version",
        "CSV table 1\nCSV table · latest by Answer\n1 version",
        "SVG image 1\nSVG image · latest by Answer\n1 version",
        "Loan rules\nMarkdown document · latest by Answer\n1 version",
      ]);
    expect(await axeViolations(page, ['[data-testid="artifacts-panel"]'])).toEqual([]);
    await items.first().click();

    const viewer = page.getByTestId("artifact-viewer");
    await viewer.getByRole("button", { name: "v2" }).waitFor();
    expect(await viewer.getByRole("button", { name: "v2" }).getAttribute("aria-pressed")).toBe(
      "true",
    );
    await viewer.frameLocator('[data-testid="artifact-frame"]').getByText("Pro: $29").waitFor();
    await viewer.getByRole("tab", { name: "Changes from v1" }).click();
    await expect
      .poll(() => viewer.getByTestId("artifact-diff-summary").textContent())
      .toBe("1 line added, 0 removed");
    expect(await viewer.getByTestId("artifact-diff").textContent()).toContain(
      "+Added: <p>Pro: $29</p>",
    );
    expect(await axeViolations(page, ['[data-testid="artifact-viewer"]'])).toEqual([]);
    await screenshot(page, "artifact-versions", false);

    // A copied link opens that version full screen.
    await viewer.getByRole("button", { name: "v1" }).click();
    await viewer.getByRole("tab", { name: "Preview" }).click();
    await page.keyboard.press("Escape");
    await viewer.waitFor({ state: "detached" });
    await page.goto(`/chat/${sessionId}?artifact=html-pricing&version=1`);
    await viewer.waitFor();
    expect(await viewer.getByRole("button", { name: "v1" }).getAttribute("aria-pressed")).toBe(
      "true",
    );
    expect(
      await viewer.frameLocator('[data-testid="artifact-frame"]').getByText("Pro: $29").count(),
    ).toBe(0);
    await viewer
      .frameLocator('[data-testid="artifact-frame"]')
      .getByText("Starter: free")
      .waitFor();
    guarded.expectNoErrors();
    await guarded.close();
  }, 120_000);

  it("shows a shared link's artifact, with tabs a keyboard can work and no axe violation", async () => {
    const owner = await createUser();
    const sessionId = await importSession(
      owner.token,
      `The page:\n\n${fence("html", PRICING_V2)}\n\nDone.`,
      "Shared pricing",
    );
    const { url } = await call<{ url: string }>(
      owner.token,
      "POST",
      `/api/sessions/${sessionId}/shares`,
      {},
    );
    const guarded = await openPage(browser, desktop);
    const { page } = guarded;
    await page.goto(new URL(url).pathname);
    await page.getByTestId("shared-page").waitFor();
    const artifact = page.getByTestId("artifact").first();
    await artifact.waitFor();

    // Keyboard only: the Code tab is one tab stop, the arrow key moves to Preview and shows it.
    const codeTab = artifact.getByRole("tab", { name: "Code" });
    await codeTab.focus();
    await page.keyboard.press("ArrowRight");
    const previewTab = artifact.getByRole("tab", { name: "Preview" });
    await expect.poll(() => previewTab.getAttribute("aria-selected")).toBe("true");
    expect(await previewTab.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await codeTab.getAttribute("tabindex")).toBe("-1");
    await page.frameLocator('[data-testid="artifact-frame"]').getByText("Pro: $29").waitFor();
    // Tab goes on through the block's actions into the shown panel.
    const focused = () =>
      page.evaluate(
        () =>
          document.activeElement?.getAttribute("role") ?? document.activeElement?.textContent ?? "",
      );
    const order: string[] = [];
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press("Tab");
      order.push(await focused());
    }
    expect(order).toEqual(["Copy", "Download", "Full screen", "Copy link", "tabpanel"]);
    // Full screen by keyboard, and Escape back.
    await artifact.getByRole("button", { name: "Full screen" }).focus();
    await page.keyboard.press("Enter");
    const viewer = page.getByTestId("artifact-viewer");
    await viewer.frameLocator('[data-testid="artifact-frame"]').getByText("Pro: $29").waitFor();
    await page.keyboard.press("Escape");
    await viewer.waitFor({ state: "detached" });
    // Home brings Code back, End Preview.
    await previewTab.focus();
    await page.keyboard.press("Home");
    await expect.poll(() => codeTab.getAttribute("aria-selected")).toBe("true");
    await artifact.getByRole("tabpanel").getByText("<p>Pro: $29</p>").waitFor();
    await page.keyboard.press("End");
    await expect.poll(() => previewTab.getAttribute("aria-selected")).toBe("true");

    expect(await axeViolations(page, ['[data-testid="artifact"]'])).toEqual([]);
    await page.getByTestId("artifacts-button").click();
    await expect
      .poll(() => page.getByTestId("artifact-item").allInnerTexts())
      .toEqual(["Pricing\nHTML page · latest by Answer\n1 version"]);
    guarded.expectNoErrors();
    await guarded.close();
  }, 120_000);
});
