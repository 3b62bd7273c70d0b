import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";

export interface ReceivedUpload {
  spoolFile: string;
  size: number;
  /** The first HEAD_BYTES bytes, for type detection. */
  head: Buffer;
  /** Every byte decoded as UTF-8 and none was NUL. */
  isUtf8Text: boolean;
}

const HEAD_BYTES = 64 * 1024;

/**
 * Streams an upload into a spool file, looking at it on the way: its size, its first bytes
 * and whether it is text. Nothing is held in memory beyond the head; the size limit is
 * multipart's (the stream ends, truncated, at the limit).
 */
export async function receiveUpload(
  file: Readable,
  spoolDir: string,
  spoolName: string,
): Promise<ReceivedUpload> {
  await mkdir(spoolDir, { recursive: true });
  const spoolFile = path.join(spoolDir, spoolName);
  const headParts: Buffer[] = [];
  let headLength = 0;
  let size = 0;
  let isUtf8Text = true;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const inspect = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (headLength < HEAD_BYTES) {
        const part = chunk.subarray(0, HEAD_BYTES - headLength);
        headParts.push(part);
        headLength += part.length;
      }
      if (isUtf8Text) {
        if (chunk.includes(0)) isUtf8Text = false;
        else {
          try {
            decoder.decode(chunk, { stream: true });
          } catch {
            isUtf8Text = false;
          }
        }
      }
      done(null, chunk);
    },
    flush(done) {
      if (isUtf8Text) {
        try {
          decoder.decode();
        } catch {
          isUtf8Text = false;
        }
      }
      done();
    },
  });
  const spool = createWriteStream(spoolFile);
  try {
    await pipeline(file, inspect, spool);
  } catch (error) {
    // The spool file opens asynchronously: a body that fails at once fails the pipeline while
    // the file is still being opened, and a removal then would come before the file exists.
    // Removed once the stream has closed (it opens, then closes, when destroyed mid-open).
    if (!spool.closed) await new Promise<void>((resolve) => spool.once("close", () => resolve()));
    await rm(spoolFile, { force: true });
    throw error;
  }
  return { spoolFile, size, head: Buffer.concat(headParts), isUtf8Text };
}
