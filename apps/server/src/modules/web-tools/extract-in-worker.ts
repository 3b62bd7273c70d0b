import { finishOnce, startWorkerThread } from "../../platform/worker-thread";
import type { ExtractedText } from "./extract-text";
import type { ExtractionReply, ExtractionRequest } from "./extraction-worker";

/** The extraction thread's heap: a 2 MB page's DOM takes tens of MB; four times that is room. */
const WORKER_MEMORY_MB = 256;

export class ExtractionFailedError extends Error {
  constructor(
    readonly reason: "media_type" | "extraction",
    message: string,
  ) {
    super(message);
    this.name = "ExtractionFailedError";
  }
}

/**
 * Extracts a page's text in its own worker thread (extraction-worker.ts), stopped after
 * `timeoutMs` or when the run stops (then the call rejects with the run's reason).
 */
export function extractInWorker(
  request: ExtractionRequest,
  options: { timeoutMs: number; signal: AbortSignal },
): Promise<ExtractedText> {
  if (options.signal.aborted) return Promise.reject(options.signal.reason);
  const worker = startWorkerThread(
    import.meta.url,
    { source: "./extraction-worker.ts", built: "./read-url-worker.js" },
    { resourceLimits: { maxOldGenerationSizeMb: WORKER_MEMORY_MB, maxYoungGenerationSizeMb: 16 } },
  );
  return new Promise<ExtractedText>((resolve, reject) => {
    const finish = finishOnce(worker, () => {
      clearTimeout(timer);
      options.signal.removeEventListener("abort", abort);
    });
    const fail = (reason: ExtractionFailedError["reason"], message: string) =>
      finish(() => reject(new ExtractionFailedError(reason, message)));
    const seconds = Math.round(options.timeoutMs / 100) / 10;
    const timer = setTimeout(
      () => fail("extraction", `Reading the page's text took longer than ${seconds} s.`),
      options.timeoutMs,
    );
    const abort = () => finish(() => reject(options.signal.reason));
    options.signal.addEventListener("abort", abort);
    worker.once("message", (reply: ExtractionReply) => {
      if (reply.ok) finish(() => resolve(reply.extracted));
      else fail(reply.unreadable !== null ? "media_type" : "extraction", reply.message);
    });
    worker.once("error", (error: Error & { code?: string }) =>
      fail(
        "extraction",
        error.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? `Reading the page's text needed more than ${WORKER_MEMORY_MB} MB of memory.`
          : "The page's text could not be read.",
      ),
    );
    worker.once("exit", () => fail("extraction", "The page's text could not be read."));
    worker.once("online", () => {
      const body = new Uint8Array(request.body.byteLength);
      body.set(request.body);
      worker.postMessage({ ...request, body }, [body.buffer]);
    });
  });
}
