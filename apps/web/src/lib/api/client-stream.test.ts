// @vitest-environment node
import { describe, expect, it, vi } from "vitest";
import { MemoryStorage } from "../../test-support/memory-storage";
import { type ApiClientDeps, createApiClient } from "./client";

/** The streamed call CoChat uses: same headers and error policy, its own time-out. */

interface Call {
  url: string;
  init: RequestInit;
  headers: Record<string, string>;
}

/** Like a real fetch body: an aborted request errors the stream being read. */
function sseResponse(
  parts: string[],
  options: { hold?: boolean; signal?: AbortSignal | null } = {},
) {
  const encoder = new TextEncoder();
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      options.signal?.addEventListener("abort", () =>
        controller.error(new DOMException("aborted", "AbortError")),
      );
    },
    pull(controller) {
      const part = parts[index++];
      if (part !== undefined) controller.enqueue(encoder.encode(part));
      else if (!options.hold) controller.close();
    },
  });
  return new Response(body, {
    status: 200,
    headers: { "content-type": "text/event-stream", "x-request-id": "srv-1" },
  });
}

function setup(handlers: ((call: Call) => Response | Promise<Response>)[]) {
  const calls: Call[] = [];
  const timers: { at: number; callback: () => void }[] = [];
  let now = 0;
  const session = new MemoryStorage();
  const deps: ApiClientDeps = {
    fetch: vi.fn(async (url: string, init: RequestInit) => {
      const call = { url, init, headers: { ...(init.headers as Record<string, string>) } };
      calls.push(call);
      const handler = handlers.shift();
      if (!handler) throw new Error(`unexpected ${url}`);
      // A real fetch rejects once its signal aborts before the answer.
      return new Promise<Response>((resolve, reject) => {
        init.signal?.addEventListener("abort", () =>
          reject(new DOMException("aborted", "AbortError")),
        );
        Promise.resolve(handler(call)).then(resolve, reject);
      });
    }),
    clock: {
      now: () => now,
      setTimeout: (callback, ms) => {
        timers.push({ at: now + ms, callback });
        return timers.length - 1;
      },
      clearTimeout: (handle) => {
        const timer = timers[handle as number];
        if (timer) timer.at = Number.POSITIVE_INFINITY;
      },
    },
    navigation: { currentPath: () => "/cochat", redirect: vi.fn() },
    sessionStorage: session,
    localStorage: new MemoryStorage(),
    logger: { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() },
    randomId: () => "req-1",
  };
  const advance = (ms: number) => {
    now += ms;
    for (const timer of timers)
      if (timer.at <= now) {
        timer.at = Number.POSITIVE_INFINITY;
        timer.callback();
      }
  };
  return { client: createApiClient(deps), calls, advance, deps };
}

const csrf = () =>
  new Response(JSON.stringify({ csrfToken: "tok-1" }), {
    headers: { "content-type": "application/json" },
  });

async function collect(chunks: AsyncGenerator<string>) {
  const out: string[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

describe("api.stream", () => {
  it("sends the CSRF token, the request id and the JSON body, and yields text as it arrives", async () => {
    const { client, calls } = setup([
      csrf,
      () => sseResponse(['event: delta\ndata: {"text":"Hel', 'lo"}\n\n']),
    ]);
    const stream = await client.stream("POST", "/cochat/chat", {
      body: { messages: [{ role: "user", content: "Hi" }] },
      timeoutMs: 180_000,
    });
    expect(stream.requestId).toBe("srv-1");
    expect((await collect(stream.chunks())).join("")).toBe(
      'event: delta\ndata: {"text":"Hello"}\n\n',
    );
    const post = calls[1] as Call;
    expect(post.url).toBe("/api/cochat/chat");
    expect(post.init.method).toBe("POST");
    expect(post.init.credentials).toBe("include");
    expect(post.headers).toMatchObject({
      Accept: "text/event-stream",
      "Content-Type": "application/json",
      "x-csrf-token": "tok-1",
      "x-request-id": "req-1",
    });
    expect(JSON.parse(String(post.init.body))).toEqual({
      messages: [{ role: "user", content: "Hi" }],
    });
  });

  it("rejects a refused call with the server's error before any chunk", async () => {
    const { client } = setup([
      csrf,
      () =>
        new Response(
          JSON.stringify({
            error: { code: "cochat_locked", message: "Upgrade to unlock CoChat." },
          }),
          { status: 403, headers: { "content-type": "application/json" } },
        ),
    ]);
    await expect(client.stream("POST", "/cochat/chat", { body: {} })).rejects.toMatchObject({
      status: 403,
      code: "cochat_locked",
      message: "Upgrade to unlock CoChat.",
    });
  });

  it("retries once with a fresh CSRF token, like every mutating call", async () => {
    const { client, calls } = setup([
      csrf,
      () =>
        new Response(
          JSON.stringify({ error: { code: "csrf_invalid", message: "Bad CSRF token" } }),
          {
            status: 403,
          },
        ),
      () =>
        new Response(JSON.stringify({ csrfToken: "tok-2" }), {
          headers: { "content-type": "application/json" },
        }),
      () => sseResponse(["data: {}\n\n"]),
    ]);
    const stream = await client.stream("POST", "/cochat/chat", { body: {} });
    await collect(stream.chunks());
    expect(calls.map((c) => c.headers["x-csrf-token"] ?? null)).toEqual([
      null,
      "tok-1",
      null,
      "tok-2",
    ]);
  });

  it("times out a stream that stalls, with the caller's time-out (not the 30 s default)", async () => {
    const { client, advance } = setup([
      csrf,
      (call) => sseResponse(["event: delta\n"], { hold: true, signal: call.init.signal }),
    ]);
    const stream = await client.stream("POST", "/cochat/chat", { body: {}, timeoutMs: 180_000 });
    const chunks = stream.chunks();
    expect((await chunks.next()).value).toBe("event: delta\n");
    advance(30_000);
    const pending = chunks.next();
    advance(150_000);
    await expect(pending).rejects.toMatchObject({ code: "timeout", status: 0 });
  });

  it("cancels on the caller's signal (Stop) and reports it as aborted", async () => {
    const { client } = setup([
      csrf,
      (call) => sseResponse(["data: {}\n\n"], { hold: true, signal: call.init.signal }),
    ]);
    const stop = new AbortController();
    const stream = await client.stream("POST", "/cochat/chat", { body: {}, signal: stop.signal });
    const chunks = stream.chunks();
    await chunks.next();
    const pending = chunks.next();
    stop.abort();
    await expect(pending).rejects.toMatchObject({ code: "request_aborted" });
  });
});
