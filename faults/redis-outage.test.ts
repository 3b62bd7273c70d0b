import type { TRunEvent } from "@cohort/contracts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RUN_ENDS, sessionEvents } from "./support/api";
import { FaultCluster, ONE_CODER_PLAN } from "./support/cluster";
import { checkInvariants, type SentMessage, waitForQuiet } from "./support/invariants";
import { SessionWatcher } from "./support/session-watcher";
import { longDraft } from "./support/texts";
import { waitFor } from "./support/wait";

/**
 * Redis stopped and started again while a run streams: both instances keep serving (ready,
 * degraded), runs go on and finish, and clients on either instance get the run's events
 * again once Redis is back, reading what they missed from the stored events by seq.
 */
let cluster: FaultCluster;
const watchers: SessionWatcher[] = [];

beforeAll(async () => {
  cluster = await FaultCluster.start({ instances: 2 });
});
afterAll(async () => {
  for (const watcher of watchers) watcher.close();
  await cluster?.close();
});

it("keeps serving with Redis down and carries events across instances again when it is back", async () => {
  cluster.reportOnFailure();
  const [a, b] = [cluster.instance(0), cluster.instance(1)];
  const sent: SentMessage[] = [];
  const user = await cluster.payingUser();
  const marker = "fault-redis-first";
  // The plan at once, then the Coder's draft slowly: the run is mid-stream when Redis stops.
  cluster.fake.next({ json: ONE_CODER_PLAN }, { text: longDraft(40), chunkDelayMs: 100 });
  const first = await cluster.sendInNewSession(b, user, `Write a CSV parser (${marker})`);
  sent.push(first);
  for (const instance of [a, b]) {
    watchers.push(await SessionWatcher.open(instance, user.token, first.sessionId));
  }
  await waitFor(
    15_000,
    "the Coder's draft streaming to the clients on both instances",
    () =>
      watchers.every((w) => w.live.some((e) => e.event.type === "agent.delta")) ? true : undefined,
    { describe: () => describeWatchers() },
  );
  // The run's later calls (its synthesis) wait at the provider's door until Redis is back.
  for (const route of cluster.routes.values()) route.hold(marker);

  await cluster.redis.stop();
  for (const instance of [a, b]) {
    const readiness = await waitFor(10_000, `Redis seen down by ${instance.name}`, async () => {
      const answer = await instance.readiness();
      return answer.body.redis?.status === "down" ? answer : undefined;
    });
    expect(readiness.status).toBe(200);
    expect(readiness.body).toMatchObject({
      status: "degraded",
      ready: true,
      draining: false,
      database: { status: "up" },
      redis: { status: "down", kind: "redis" },
    });
  }

  // Still serving: a new account, a session and a run of its own, from the other instance.
  const second = await cluster.payingUser();
  const during = await cluster.sendInNewSession(a, second, "Summarise the CSV spec");
  sent.push(during);
  const duringEvents = await waitFor(
    20_000,
    "the end of the run started with Redis down",
    async () => {
      const events = await sessionEvents(a.url, second.token, during.sessionId);
      return events.some((e) => RUN_ENDS.has(e.type)) ? events : undefined;
    },
  );
  expect(duringEvents.at(-1)?.type).toBe("run.completed");

  // The first run's draft ends while Redis is down; its synthesis waits at the door.
  await waitFor(20_000, "the first run's synthesis call at the provider's door", () =>
    [...cluster.routes.values()].some((r) => r.waiting > 0) ? true : undefined,
  );
  const storedBefore = await sessionEvents(b.url, user.token, first.sessionId);
  const seqBeforeReturn = storedBefore.at(-1)?.seq ?? 0;
  expect(storedBefore.filter((e) => e.type === "agent.done")).toHaveLength(1);

  await cluster.redis.startAgain();
  for (const instance of [a, b]) {
    await waitFor(15_000, `Redis seen up again by ${instance.name}`, async () => {
      const answer = await instance.readiness();
      return answer.status === 200 && answer.body.status === "ok" ? true : undefined;
    });
  }
  // The synthesis streams slowly, so its events span the adapter's return on both instances.
  cluster.fake.next({ text: longDraft(30, "answer"), chunkDelayMs: 100 });
  for (const route of cluster.routes.values()) route.release();

  await waitFor(30_000, "the first run's end on both clients", () =>
    watchers.every((w) => w.shown.some((e) => RUN_ENDS.has(e.type))) ? true : undefined,
  );
  const stored = await sessionEvents(a.url, user.token, first.sessionId);
  expect(stored.at(-1)?.type).toBe("run.completed");
  for (const watcher of watchers) {
    // Live again after Redis returned, whichever instance ran the run...
    const liveAfter = watcher.live.filter((e) => e.event.seq > seqBeforeReturn);
    expect(
      liveAfter.length,
      `live events on ${watcher.instanceName} after Redis returned`,
    ).toBeGreaterThan(0);
    // ...and every event once, in seq order: what did not come live was read by seq.
    expect(watcher.shown.map(summary)).toEqual(stored.map(summary));
    expect(watcher.errors).toEqual([]);
  }

  await waitForQuiet(cluster);
  await checkInvariants(cluster, sent);
});

const summary = (e: TRunEvent) => `${e.seq} ${e.type}`;

function describeWatchers(): string {
  return watchers
    .map((w) => `${w.instanceName}: live ${w.live.map((e) => summary(e.event)).join(", ")}`)
    .join("; ");
}
