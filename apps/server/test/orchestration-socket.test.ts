import { setTimeout as sleep } from "node:timers/promises";
import {
  CLIENT_EVENTS,
  SERVER_EVENTS,
  type TJoinSessionAck,
  type TRunEvent,
  takeNewEvents,
} from "@cohort/contracts";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listenLocally, type TestApp } from "./support/app";
import type { FakeProviderServer } from "./support/fake-provider/fake-provider-server";
import { startHostedOpenAiApp } from "./support/hosted-openai";
import { createSession, runToEnd, sendMessage, sessionEvents, waitForRunEnd } from "./support/runs";
import { signUpWithCredits } from "./support/runs-credits";
import { connected, joinSession, socketOpener } from "./support/sockets";

let t: TestApp;
let fake: FakeProviderServer;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  ({ t, fake } = await startHostedOpenAiApp());
  url = await listenLocally(t.app);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t?.close();
});
beforeEach(() => fake.reset());

const ONE_CODER = {
  rationale: "One coder step.",
  steps: [{ id: "s1", role: "coder", task: "Write it", dependsOn: [] }],
};

const opener = socketOpener(() => url);

function open(token: string): Socket {
  const socket = opener.open({ token });
  sockets.push(socket);
  return socket;
}

async function signedIn(credits = 200) {
  const signed = await signUpWithCredits(t.app, credits);
  return signed;
}

const until = async (check: () => boolean | Promise<boolean>, what: string) => {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
};

describe("join-session", () => {
  it("lets only the owner join: anyone else gets not_found, bad payloads invalid_request", async () => {
    const owner = await signedIn();
    const stranger = await signedIn();
    const session = await createSession(owner.client);
    const socket = open(stranger.token);
    await connected(socket);
    expect(await joinSession(socket, session.id)).toEqual({ ok: false, error: "not_found" });
    expect(await joinSession(socket, "00000000-0000-4000-8000-000000000000")).toEqual({
      ok: false,
      error: "not_found",
    });
    expect(await joinSession(socket, "not-a-uuid")).toEqual({ ok: false, error: "not_found" });
    expect(await joinSession(socket, 42)).toEqual({ ok: false, error: "invalid_request" });
    const [server] = await t.app.realtime.io.in(`user:${stranger.user.id}`).fetchSockets();
    expect([...(server?.rooms ?? [])].some((room) => room.startsWith("chat:"))).toBe(false);

    const mine = open(owner.token);
    await connected(mine);
    expect(await joinSession(mine, session.id)).toEqual({
      ok: true,
      backlog: [],
      lastSeq: 0,
      hasMore: false,
    });
  });

  it("sends live events to joined sockets only, until they leave", async () => {
    const owner = await signedIn();
    const session = await createSession(owner.client);
    const joined = open(owner.token);
    const left = open(owner.token);
    await Promise.all([connected(joined), connected(left)]);
    await joinSession(joined, session.id);
    await joinSession(left, session.id);
    expect(
      await left.timeout(5_000).emitWithAck(CLIENT_EVENTS.leaveSession, { sessionId: session.id }),
    ).toEqual({
      ok: true,
    });
    const seen: TRunEvent[] = [];
    const seenAfterLeaving: TRunEvent[] = [];
    joined.on(SERVER_EVENTS.runEvent, (event: TRunEvent) => seen.push(event));
    left.on(SERVER_EVENTS.runEvent, (event: TRunEvent) => seenAfterLeaving.push(event));

    fake.next({ json: ONE_CODER });
    const { events: stored } = await runToEnd(owner.client, session.id, "Hello");
    await until(() => seen.length === stored.length, "every live event");
    expect(seen).toEqual(stored);
    expect(seenAfterLeaving).toEqual([]);
  });

  it("replays what a reconnecting client missed: every event exactly once, in order", async () => {
    const owner = await signedIn();
    const session = await createSession(owner.client);
    const words = Array.from({ length: 150 }, (_, i) => `token${i}`).join(" ");
    fake.next(
      { json: ONE_CODER },
      { text: words, chunkDelayMs: 15 },
      { text: words, chunkDelayMs: 5 },
    );

    // The client's state: the events it applied, and the live ones waiting for the join ack.
    let lastSeq = 0;
    const applied: TRunEvent[] = [];
    const received: number[] = [];
    let buffered: TRunEvent[] = [];
    let joining = false;
    const apply = (events: TRunEvent[]) => {
      const next = takeNewEvents(lastSeq, events);
      applied.push(...next.events);
      lastSeq = next.lastSeq;
      buffered = next.pending;
    };

    const socket = connect(url, {
      transports: ["polling"],
      reconnection: false,
      auth: { token: owner.token },
    });
    sockets.push(socket);
    socket.on(SERVER_EVENTS.runEvent, (event: TRunEvent) => {
      received.push(event.seq);
      if (joining) buffered.push(event);
      else apply([...buffered, event]);
    });
    const rejoin = async () => {
      joining = true;
      const ack = await joinSession(socket, session.id, lastSeq);
      if (!ack.ok) throw new Error(ack.error);
      joining = false;
      apply([...ack.backlog, ...buffered]);
    };
    socket.on("connect", () => void rejoin());
    await connected(socket);

    const { run_id } = await sendMessage(owner.client, session.id, "Write a long answer");
    await until(() => applied.filter((e) => e.type === "agent.delta").length >= 3, "three deltas");
    socket.disconnect();
    const missedFrom = lastSeq;
    // While the client is away the run goes on: wait until it has missed some events.
    await until(
      async () => (await sessionEvents(owner.client, session.id)).length > missedFrom + 5,
      "events to miss",
    );
    socket.connect();
    const stored = await waitForRunEnd(owner.client, session.id, run_id);
    await until(() => applied.some((e) => e.type === "run.completed"), "the end of the run");

    const seqs = applied.map((e) => e.seq);
    expect(seqs).toEqual(stored.map((_, i) => i + 1));
    expect(applied).toEqual(stored);
    // The client really was away: events after missedFrom came from the backlog, not live.
    expect(received.filter((seq) => seq > missedFrom).length).toBeLessThan(
      stored.length - missedFrom,
    );
  });

  it("answers rewound to a client whose last event is not the server's of that number", async () => {
    const owner = await signedIn();
    const session = await createSession(owner.client);
    fake.next({ json: ONE_CODER }, { text: "A short answer." }, { text: "Done." });
    const { events: stored } = await runToEnd(owner.client, session.id, "Answer briefly");
    const last = stored.at(-1) as TRunEvent;
    const socket = open(owner.token);
    await connected(socket);
    const joinAt = (lastSeq: number, lastAt: string): Promise<TJoinSessionAck> =>
      socket
        .timeout(5_000)
        .emitWithAck(CLIENT_EVENTS.joinSession, { sessionId: session.id, lastSeq, lastAt });

    // The same event under that number: nothing to replay.
    expect(await joinAt(last.seq, last.at)).toEqual({
      ok: true,
      backlog: [],
      lastSeq: last.seq,
      hasMore: false,
    });
    // Another event under a number the server has (it numbered anew after losing some)...
    const rewound = { ok: true, backlog: [], lastSeq: last.seq, hasMore: false, rewound: true };
    expect(await joinAt(last.seq, "2026-01-01T00:00:00.000Z")).toEqual(rewound);
    // ... or a number it never stored.
    expect(await joinAt(last.seq + 3, last.at)).toEqual(rewound);
    // An earlier event, named right: the rest is replayed as before.
    const earlier = stored[1] as TRunEvent;
    const replay = await joinAt(earlier.seq, earlier.at);
    expect(replay.ok && replay.backlog.map((e) => e.seq)).toEqual(
      stored.slice(2).map((e) => e.seq),
    );
  });
});
