// Retakes the README's screenshots: `node scripts/take-screenshots.mjs`.
//
// It builds the app, then takes the README's first screenshot (docs/screenshots/chat-run.png)
// itself: a fresh built server on the simulator, a new account, a PDF of library rules
// attached to a session, and a question the simulator answers from it (decision 056) — the
// plan, the lanes, the Critic's score and the cited answer. The README's other screenshots
// are taken by the browser tests that cover their screens; `--all` runs those files one at a
// time with UPDATE_SCREENSHOTS=1, which writes every screenshot they take into
// docs/screenshots. chat-run.png has this one writer (the browser tests save theirs under
// other names).
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import PDFDocument from "pdfkit";
import { chromium } from "playwright-core";
import { buildIfStale } from "./build.mjs";
import { CHROMIUM_ARGS, findChromium } from "./find-chromium.mjs";

const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, "docs/screenshots");
const ADMIN_EMAIL = "admin@cohort.test";
const ADMIN_PASSWORD = "screenshots-Admin-passphrase-42";
const PASSWORD = "correct-horse-battery-staple";
const QUESTION = "What is the fine for a DVD returned late at the library?";
/** The PDF's sentence that answers QUESTION, which the simulator quotes (decision 056). */
const ANSWER_SENTENCE =
  "DVDs are lent for one week, and a late DVD costs 1.00 per day, up to 10.00.";
const RUN_TIMEOUT_MS = 120_000;

/** The browser test files that take the README's other screenshots. */
const README_TEST_FILES = [
  "e2e/public-pages.test.ts", // landing, not-found
  "e2e/accounts.test.ts", // login, agreement-modal, dashboard
  "e2e/billing.test.ts", // billing
  "e2e/cochat.test.ts", // cochat
  "e2e/firebase.test.ts", // login-providers, settings-linked-accounts
  "e2e/documents.test.ts", // documents-search
  "e2e/workspaces.test.ts", // workspace-switcher, workspace-settings
  "e2e/chat.test.ts", // chat-new-session
  "e2e/documents-in-runs.test.ts", // documents-in-runs-viewer, -lane, -answer
  "e2e/artifacts.test.ts", // artifact-html-preview, artifact-versions
  "e2e/steering.test.ts", // chat-plan-editor, chat-steered-lane, chat-queued-message
];

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function libraryRulesPdf() {
  const doc = new PDFDocument({ autoFirstPage: false, size: "A4", margin: 56 });
  const parts = [];
  doc.on("data", (part) => parts.push(part));
  const done = new Promise((resolve) => doc.on("end", () => resolve(Buffer.concat(parts))));
  const pages = [
    [
      "Riverside Public Library: lending rules",
      "Membership is free for everyone who lives, works or studies in the borough. A member card is issued at the front desk on showing proof of address.",
      "Books are lent for three weeks and can be renewed twice, online or at the desk, unless another member has reserved them. A late book costs 0.20 per day.",
    ],
    [
      "Films and music",
      "DVDs are lent for one week, and a late DVD costs 1.00 per day, up to 10.00. DVDs cannot be renewed.",
      "Music CDs follow the rules for books. Damaged or lost items are charged at their replacement cost.",
    ],
  ];
  pages.forEach(([heading, ...paragraphs]) => {
    doc.addPage();
    doc.fontSize(16).text(heading).fontSize(11);
    for (const text of paragraphs) doc.moveDown().text(text);
  });
  doc.end();
  return done;
}

async function startServer(port) {
  let log = "";
  const dataDir = mkdtempSync(path.join(tmpdir(), "cohort-screenshots-"));
  const child = spawn(process.execPath, [path.join(root, "apps/server/dist/main.js")], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      LOCAL_MODEL_DISCOVERY: "0",
      // The default: simulated calls are not charged, as a new self-hoster sees them.
      SIMULATOR_CHARGES: "0",
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (chunk) => {
    log += chunk;
  });
  child.stderr.on("data", (chunk) => {
    log += chunk;
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited:\n${log}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return { child, dataDir };
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`The server did not become healthy:\n${log}`);
}

function client(base) {
  async function call(method, route, { body, bearer, form } = {}) {
    const headers = {};
    if (bearer) {
      headers.authorization = `Bearer ${bearer}`;
    } else if (method !== "GET") {
      const response = await fetch(`${base}/api/csrf-token`);
      headers.cookie = response.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; ");
      headers["x-csrf-token"] = (await response.json()).csrfToken;
    }
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(`${base}${route}`, {
      method,
      headers,
      body: form ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  }
  return call;
}

/** A verified account (the welcome credits arrive with the verification) with the PDF read. */
async function prepareAccount(base) {
  const call = client(base);
  const { agreement } = await call("GET", "/api/agreements/current");
  const email = "ada.lovelace@example.test";
  const { token } = await call("POST", "/api/user-auth/signup", {
    body: {
      email,
      password: PASSWORD,
      firstName: "Ada",
      lastName: "Lovelace",
      agreementId: agreement.id,
    },
  });
  const admin = (
    await call("POST", "/api/admin/login", {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    })
  ).token;
  let link;
  for (let i = 0; i < 50 && !link; i += 1) {
    const { messages } = await call("GET", "/api/admin/outbox", { bearer: admin });
    const message = messages.find((m) => m.to === email && /confirm your email/i.test(m.subject));
    link = message && /https?:\/\/\S+\/verify-email\?token=\S*/.exec(message.text)?.[0];
    if (!link) await sleep(200);
  }
  if (!link) throw new Error("No verification email arrived");
  await call("POST", "/api/user-auth/verify-email", {
    body: { token: new URL(link).searchParams.get("token") },
  });

  const form = new FormData();
  form.append(
    "file",
    new Blob([await libraryRulesPdf()], { type: "application/pdf" }),
    "library-rules.pdf",
  );
  const { document } = await call("POST", "/api/documents", { bearer: token, form });
  for (let i = 0; i < 300; i += 1) {
    const { documents } = await call("GET", "/api/documents", { bearer: token });
    const status = documents.find((d) => d.id === document.id)?.status;
    if (status === "ready") return token;
    if (status === "failed") throw new Error("The PDF could not be read");
    await sleep(200);
  }
  throw new Error("The PDF was not read in time");
}

async function takeChatRun(base, token) {
  const executablePath = findChromium();
  if (!executablePath) throw new Error("No Chromium found: install it or set CHROMIUM_PATH.");
  const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({
      baseURL: base,
      viewport: { width: 1440, height: 900 },
      // One pixel per CSS pixel keeps the README's first picture small enough to load fast.
      deviceScaleFactor: 1,
    });
    await context.addCookies([
      { name: "cohort_session", value: token, url: base, httpOnly: true, sameSite: "Lax" },
    ]);
    const page = await context.newPage();
    await page.goto("/chat");
    await page.getByRole("button", { name: "New session" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New session" });
    await dialog.getByLabel("Title", { exact: true }).fill("Library fines");
    await dialog
      .getByTestId("document-picker")
      .getByRole("checkbox", { name: /library-rules\.pdf/ })
      .check();
    await dialog.getByRole("button", { name: "Create session" }).click();
    await page.waitForURL(/\/chat\/[\w-]+$/);
    const box = page.getByRole("textbox", { name: "Message" });
    await box.fill(QUESTION);
    await box.press("Enter");
    const run = page.locator('[data-testid="run"][data-status="completed"]').last();
    await run.waitFor({ timeout: RUN_TIMEOUT_MS });
    await run.getByTestId("final-answer").getByTestId("citation").first().waitFor();
    // The README's first picture must show a run that answers its question: the answer
    // quotes the PDF's sentence on DVDs, or there is no picture.
    const answered = await run.getByTestId("final-answer").textContent();
    if (!answered?.includes(`answers it: “${ANSWER_SENTENCE}”`)) {
      throw new Error(`The run did not answer the question:\n${answered}`);
    }
    // Let the last counters and the score ring settle before the picture.
    await sleep(1000);
    // The whole run (plan, lanes, the Critic's score, the answer) is taller than 900 px: the
    // window grows, 1440 px wide, until the run and the composer fit without scrolling.
    await page.setViewportSize({ width: 1440, height: 3000 });
    await sleep(500);
    const runBox = await run.boundingBox();
    const boxTop = (await box.boundingBox())?.y ?? 3000;
    const height = Math.ceil((runBox ? runBox.y + runBox.height : 2000) + 24 + (3000 - boxTop));
    await page.setViewportSize({ width: 1440, height: Math.max(900, height) });
    await sleep(500);
    mkdirSync(out, { recursive: true });
    await page.screenshot({ path: path.join(out, "chat-run.png"), fullPage: false });
    console.log("docs/screenshots/chat-run.png");
  } finally {
    await browser.close();
  }
}

if (process.argv.includes("--all")) {
  // One vitest run per project: each starts one server and runs its files one at a time.
  const alone = ["e2e/chat.test.ts", "e2e/documents-in-runs.test.ts"];
  for (const [project, files] of [
    ["e2e", README_TEST_FILES.filter((file) => !alone.includes(file))],
    ["e2e-alone", README_TEST_FILES.filter((file) => alone.includes(file))],
  ]) {
    const result = spawnSync("npx", ["vitest", "run", "--project", project, ...files], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, UPDATE_SCREENSHOTS: "1" },
    });
    if (result.status !== 0) process.exitCode = 1;
  }
}

await buildIfStale();
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const { child, dataDir } = await startServer(port);
try {
  await takeChatRun(base, await prepareAccount(base));
} finally {
  child.kill("SIGTERM");
  await new Promise((resolve) =>
    child.exitCode !== null ? resolve() : child.once("exit", resolve),
  );
  rmSync(dataDir, { recursive: true, force: true });
}
