import type { Worker } from "node:worker_threads";
import type { TDocumentKind } from "@cohort/contracts";
import { finishOnce, startWorkerThread } from "../../platform/worker-thread";
import type { Extraction, ExtractionLimits } from "./extract-text";

export interface ExtractOptions extends ExtractionLimits {
  timeoutMs: number;
  memoryMb: number;
  signal?: AbortSignal;
}

/** How often the process's memory is looked at while a document is read. */
const MEMORY_CHECK_MS = 100;

/** The extraction was stopped by the server (shutting down), not by the document. */
export class ExtractionAborted extends Error {}

/**
 * Extracts a document in its own worker thread: a heap limit (DOCUMENT_WORKER_MEMORY_MB) and
 * a time limit (DOCUMENT_EXTRACT_TIMEOUT_MS, counted from the thread's start) protect the
 * server from a file crafted to hang or exhaust a parser. Either limit makes it a failure
 * with the reason, never a half-read document.
 *
 * The heap limit does not count buffers (pdfjs inflates streams into them), so the process's
 * resident memory is watched too: grown by more than twice the heap limit since the thread
 * started, the thread is terminated (decision 050). The PDF's streams are measured before
 * pdfjs reads them (pdf-stream-guard.ts); this watch is the bound for what that cannot
 * measure (an encrypted file's streams).
 */
export function extractDocument(
  kind: TDocumentKind,
  bytes: Buffer,
  options: ExtractOptions,
): Promise<Extraction> {
  const limits: ExtractionLimits = {
    maxPages: options.maxPages,
    maxUnzippedBytes: options.maxUnzippedBytes,
    maxTextChars: options.maxTextChars,
  };
  const worker = startWorker({ kind, limits }, options.memoryMb);
  const residentAtStart = process.memoryUsage.rss();
  const maxGrowthMb = 2 * options.memoryMb;
  return new Promise<Extraction>((resolve, reject) => {
    const finish = finishOnce(worker, () => {
      clearTimeout(timer);
      clearInterval(watch);
      options.signal?.removeEventListener("abort", abort);
    });
    const timer = setTimeout(
      () =>
        finish(() =>
          resolve({
            ok: false,
            reason: `Reading the document took longer than ${formatSeconds(options.timeoutMs)}, so it was stopped.`,
          }),
        ),
      options.timeoutMs,
    );
    const watch = setInterval(() => {
      if (process.memoryUsage.rss() - residentAtStart <= maxGrowthMb * 1024 * 1024) return;
      finish(() =>
        resolve({
          ok: false,
          reason: `Reading the document needed more than ${maxGrowthMb} MB of memory, so it was stopped.`,
        }),
      );
    }, MEMORY_CHECK_MS);
    const abort = () => finish(() => reject(new ExtractionAborted("Extraction stopped")));
    options.signal?.addEventListener("abort", abort);
    worker.once("message", (result: Extraction) => finish(() => resolve(result)));
    worker.once("error", (error: Error & { code?: string }) =>
      finish(() =>
        resolve({
          ok: false,
          reason:
            error.code === "ERR_WORKER_OUT_OF_MEMORY"
              ? `Reading the document needed more than ${options.memoryMb} MB of memory, so it was stopped.`
              : `The document could not be read: ${error.message.slice(0, 300)}`,
        }),
      ),
    );
    worker.once("exit", (code) =>
      finish(() =>
        resolve({
          ok: false,
          reason: `The document could not be read (the reader exited with ${code}).`,
        }),
      ),
    );
    worker.once("online", () => {
      const copy = new Uint8Array(bytes.byteLength);
      copy.set(bytes);
      worker.postMessage(copy, [copy.buffer]);
    });
  });
}

function formatSeconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/**
 * The built server has the worker as its own file beside main.js (scripts/build.mjs).
 */
function startWorker(data: unknown, memoryMb: number): Worker {
  return startWorkerThread(
    import.meta.url,
    { source: "./extraction-worker.ts", built: "./document-extraction-worker.js" },
    {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: 16 },
    },
  );
}
