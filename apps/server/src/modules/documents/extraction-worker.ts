import { parentPort, workerData } from "node:worker_threads";
import type { TDocumentKind } from "@cohort/contracts";
import { type ExtractionLimits, extractText } from "./extract-text";

/**
 * The extraction thread (decision 036): one per document, started by extract-document.ts
 * with a heap limit and terminated when it takes too long. It reads the bytes it is sent,
 * answers with the chunks (or why the document cannot be read) and exits.
 */
if (!parentPort) throw new Error("extraction-worker runs as a worker thread only");
const port = parentPort;
const { kind, limits } = workerData as { kind: TDocumentKind; limits: ExtractionLimits };

port.once("message", (bytes: Uint8Array) => {
  extractText(kind, bytes, limits).then(
    (result) => {
      port.postMessage(result);
      port.close();
    },
    (error: unknown) => {
      port.postMessage({ ok: false, reason: `The document could not be read: ${String(error)}` });
      port.close();
    },
  );
});
