import { parentPort } from "node:worker_threads";
import { type ExtractedText, extractText, UnreadableContentError } from "./extract-text";

/**
 * read_url's extraction thread (decision 061): parsing, Readability and Turndown take
 * seconds on a large page, so they run here, one thread per page, with a heap limit and a
 * time limit (extract-in-worker.ts), never on the server's event loop.
 */
if (!parentPort) throw new Error("extraction-worker runs as a worker thread only");
const port = parentPort;

export interface ExtractionRequest {
  body: Uint8Array;
  mediaType: string;
  charset: string | undefined;
  url: string;
  maxChars: number;
}

export type ExtractionReply =
  | { ok: true; extracted: ExtractedText }
  | { ok: false; unreadable: string | null; message: string };

port.once("message", (request: ExtractionRequest) => {
  let reply: ExtractionReply;
  try {
    reply = {
      ok: true,
      extracted: extractText(
        request.body,
        { mediaType: request.mediaType, charset: request.charset, url: new URL(request.url) },
        request.maxChars,
      ),
    };
  } catch (error) {
    reply =
      error instanceof UnreadableContentError
        ? { ok: false, unreadable: error.mediaType, message: error.message }
        : { ok: false, unreadable: null, message: String(error).slice(0, 300) };
  }
  port.postMessage(reply);
  port.close();
});
