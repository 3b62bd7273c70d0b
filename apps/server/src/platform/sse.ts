import type { FastifyReply } from "fastify";

/**
 * A Server-Sent Events answer on a hijacked reply: `event:` + `data:` (JSON) frames, a
 * comment every 15 s so proxies keep a quiet connection open, and a signal when the client
 * goes away (the stop button, a closed tab) before the answer ends.
 */
export interface SseStream {
  send(event: string, data: unknown): void;
  /** A frame with only a `data:` line, written as given (OpenAI's streams, `[DONE]`). */
  data(payload: string): void;
  /** Aborted when the client disconnects before end(). */
  readonly clientGone: AbortSignal;
  end(): void;
}

const HEARTBEAT_MS = 15_000;

export function openSse(reply: FastifyReply): SseStream {
  reply.hijack();
  const res = reply.raw;
  const headers: Record<string, string | number | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) headers[name] = value;
  }
  res.writeHead(200, {
    ...headers,
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store, no-transform",
    // nginx and similar would otherwise buffer the stream and deliver it at the end.
    "x-accel-buffering": "no",
  });
  // The headers go out with the first event, in one write.
  const gone = new AbortController();
  let ended = false;
  res.on("close", () => {
    if (!ended) gone.abort(new DOMException("The client disconnected", "AbortError"));
  });
  const heartbeat = setInterval(() => {
    if (!res.destroyed) res.write(": ping\n\n");
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    clientGone: gone.signal,
    send(event, data) {
      if (ended || res.destroyed) return;
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    data(payload) {
      if (ended || res.destroyed) return;
      res.write(`data: ${payload}\n\n`);
    },
    end() {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      if (!res.destroyed) res.end();
    },
  };
}
