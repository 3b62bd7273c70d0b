import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appWithUser, type SignedUp } from "../support/accounts";
import type { TestApp } from "../support/app";

/**
 * Advisory class: an upload the multipart parser cannot finish. A body cut short (in the
 * file, in a part's header, before any part), one without a boundary or with garbage where
 * the parts should be, answered 500 (decision 052, finding 14). It is the client's mistake: 400
 * with a message saying what to do, no document, no spool file left behind.
 */

const BOUNDARY = "----cohortTruncated";
const MESSAGE =
  "The upload was cut short or is not valid multipart/form-data. Send the file again.";
const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\n`;

let t: TestApp;
let user: SignedUp;

beforeAll(async () => {
  ({ t, user } = await appWithUser());
});
afterAll(() => t.close());

function send(body: string, contentType = `multipart/form-data; boundary=${BOUNDARY}`) {
  return user.client.request("POST", "/api/documents", Buffer.from(body), {
    headers: { "content-type": contentType },
  });
}

describe("a multipart body that cannot be read answers 400", () => {
  it.each([
    ["cut short inside the file", `${head}hello wor`],
    [
      "cut short inside a part's header",
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filena`,
    ],
    ["cut short after the first boundary", `--${BOUNDARY}\r\nContent-Disp`],
    ["no parts at all, only garbage", "garbage where the parts should be"],
    [
      "a field cut short before the file",
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="workspace_id"\r\n\r\nabc`,
    ],
    [
      "a part header with no blank line",
      `--${BOUNDARY}\r\nContent-Type: text/plain\r\nX: ${"y".repeat(100_000)}`,
    ],
  ])("%s", async (_, body) => {
    const response = await send(body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: "bad_request", message: MESSAGE } });
  });

  it("a multipart content type without a boundary", async () => {
    const response = await send(`${head}hello\r\n--${BOUNDARY}--\r\n`, "multipart/form-data");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: "bad_request", message: MESSAGE } });
  });

  it("keeps no document and no spool file, and a whole upload still works", async () => {
    await send(`${head}${"x".repeat(200_000)}`);
    const listed = await user.client.get("/api/documents");
    expect(listed.json().documents).toEqual([]);
    const spool = path.join(t.app.config.dataDir, "documents", ".spool");
    // The 400 can leave before the failed pipeline's clean-up has run (CI once saw the file
    // an instant after the answer): the file must go, not necessarily before the answer.
    await expect.poll(() => readdirSync(spool)).toEqual([]);
    const whole = await send(`${head}hello world\r\n--${BOUNDARY}--\r\n`);
    expect(whole.statusCode).toBe(201);
  });
});
