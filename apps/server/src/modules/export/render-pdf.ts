import type { Worker } from "node:worker_threads";
import { EXPORT_ERROR_CODES } from "@cohort/contracts";
import type { PdfExportConfig } from "../../config";
import { AppError } from "../../platform/errors";
import { finishOnce, startWorkerThread } from "../../platform/worker-thread";

/** Seconds a refused export is told to wait: a typical render's length. */
const RETRY_AFTER_SECONDS = 5;

export interface PdfRenderer {
  /**
   * The PDF of a Markdown document, drawn in a thread of its own. Refuses at once (503 with
   * Retry-After) when every renderer is busy; a render over its time or memory limit is
   * stopped and answered 422.
   */
  render(
    markdown: string,
    title: string,
    pictures?: readonly [string, Uint8Array][],
  ): Promise<Buffer>;
  /** Stops the running renders (their requests are answered 503) and refuses new ones. */
  close(): Promise<void>;
}

/**
 * PDF export off the server's thread (decision 050): pdfkit is CPU-bound for seconds on a
 * long session, and on the event loop one export stopped every request and SIGTERM. Each
 * render is a worker thread with a heap limit and a time limit, at most `renderers` at
 * once; the thread is terminated after its answer or at either limit.
 */
export function createPdfRenderer(config: PdfExportConfig): PdfRenderer {
  const running = new Map<Worker, (error: AppError) => void>();
  let closed = false;

  const busy = () =>
    new AppError(
      EXPORT_ERROR_CODES.pdfBusy,
      503,
      "Every PDF renderer is busy. Try again in a few seconds, or download the session as Markdown.",
      undefined,
      { "retry-after": String(RETRY_AFTER_SECONDS) },
    );
  const tooLarge = (limit: string) =>
    new AppError(
      EXPORT_ERROR_CODES.pdfTooLarge,
      422,
      `The PDF needed more than ${limit} to draw, so it was stopped. Download the session as Markdown or JSON instead.`,
    );

  return {
    render(markdown, title, pictures = []) {
      if (closed || running.size >= config.renderers) return Promise.reject(busy());
      const worker = startWorkerThread(
        import.meta.url,
        { source: "./render-pdf-worker.ts", built: "./pdf-render-worker.js" },
        {
          workerData: { markdown, title, limits: { maxPages: config.maxPages }, pictures },
          resourceLimits: {
            maxOldGenerationSizeMb: config.memoryMb,
            maxYoungGenerationSizeMb: 16,
          },
        },
      );
      return new Promise<Buffer>((resolve, reject) => {
        const finish = finishOnce(worker, () => {
          clearTimeout(timer);
          running.delete(worker);
        });
        running.set(worker, (error) => finish(() => reject(error)));
        const timer = setTimeout(
          () => finish(() => reject(tooLarge(formatSeconds(config.timeoutMs)))),
          config.timeoutMs,
        );
        worker.once("message", (bytes: Uint8Array) =>
          finish(() => resolve(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))),
        );
        worker.once("error", (error: Error & { code?: string }) =>
          finish(() =>
            reject(
              error.code === "ERR_WORKER_OUT_OF_MEMORY"
                ? tooLarge(`${config.memoryMb} MB of memory`)
                : error,
            ),
          ),
        );
        worker.once("exit", (code) =>
          finish(() => reject(new Error(`The PDF renderer exited with ${code} before answering`))),
        );
      });
    },
    async close() {
      closed = true;
      for (const stop of [...running.values()]) stop(busy());
    },
  };
}

/** "60 s", "1.5 s" or "800 ms": the time limit as the refusal says it. */
function formatSeconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
