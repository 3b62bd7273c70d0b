import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { receiveUpload } from "./receive-upload";

/** A body that fails before its first byte, as a connection cut during the part's headers. */
function failingAtOnce(): Readable {
  return new Readable({
    read() {
      this.destroy(new Error("cut short"));
    },
  });
}

describe("receiveUpload", () => {
  it("leaves no spool file behind when the body fails, however early", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cohort-spool-"));
    for (let i = 0; i < 40; i++) {
      await expect(receiveUpload(failingAtOnce(), dir, `upload-${i}`)).rejects.toThrow("cut short");
    }
    // A file opened after its removal would have been created by now.
    await sleep(50);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("keeps a whole body, its size, head and whether it is text", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cohort-spool-"));
    const received = await receiveUpload(Readable.from([Buffer.from("hello world")]), dir, "a");
    expect(received).toMatchObject({ size: 11, isUtf8Text: true });
    expect(received.head.toString()).toBe("hello world");
    expect(readdirSync(dir)).toEqual(["a"]);
  });
});
