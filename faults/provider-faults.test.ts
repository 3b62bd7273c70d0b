import { RUN_ERROR_CODES } from "@cohort/contracts";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { FakeReply } from "../apps/server/test/support/fake-provider/fake-provider-server";
import type { FaultUser } from "./support/api";
import { FaultCluster } from "./support/cluster";
import { checkInvariants, type SentMessage, waitForQuiet } from "./support/invariants";
import { longDraft } from "./support/texts";
import { within } from "./support/wait";

/**
 * A provider that misbehaves under load: 20 runs at once across two instances while the
 * provider hangs, cuts streams, answers 500 and 429 (with Retry-After) and resets
 * connections before answering. Runs complete (retries, fallback to the next backend) or fail
 * with a reason; money and messages add up.
 */
let cluster: FaultCluster;

beforeAll(async () => {
  cluster = await FaultCluster.start({
    instances: 2,
    // A hung call is given up after 3 s (then retried), not the default two minutes.
    env: { MODEL_CALL_TIMEOUT_MS: "3000" },
  });
});
afterAll(async () => {
  await cluster?.close();
});

/** One round of misbehaviour, in the order the next requests get it, whichever they are. */
const MISBEHAVIOUR: FakeReply[] = [
  { hang: true },
  { status: 429, headers: { "retry-after": "1" }, errorMessage: "Slow down" },
  { status: 500, errorMessage: "Upstream exploded" },
  { text: longDraft(20, "cut"), cutAfterChunks: 3 },
  { status: 503, errorMessage: "Overloaded" },
  { status: 429, headers: { "retry-after": "1" }, errorMessage: "Slow down again" },
];
const ROUNDS = 4;
const RESETS_PER_INSTANCE = 3;
const RUNS = 20;

it("completes or fails with a reason every one of 20 runs while the provider misbehaves", async () => {
  cluster.reportOnFailure();
  const instances = [cluster.instance(0), cluster.instance(1)];
  const users = await Promise.all(Array.from({ length: 5 }, () => cluster.payingUser()));
  for (let round = 0; round < ROUNDS; round++) cluster.fake.next(...MISBEHAVIOUR);
  for (const route of cluster.routes.values()) route.resetNext = RESETS_PER_INSTANCE;

  const sent: SentMessage[] = await Promise.all(
    Array.from({ length: RUNS }, (_, i) =>
      cluster.sendInNewSession(
        instances[i % 2] ?? cluster.instance(0),
        users[i % users.length] as FaultUser,
        `Parse CSV file ${i + 1}`,
      ),
    ),
  );
  await waitForQuiet(cluster, 90_000);

  // Every scripted misbehaviour was served, and every reset happened.
  const scripted = ROUNDS * MISBEHAVIOUR.length;
  expect(cluster.fake.requests.length).toBeGreaterThanOrEqual(RUNS * 3 + scripted);
  for (const route of cluster.routes.values()) expect(route.resetNext).toBe(0);
  // Each hung request was given up by its instance (its connection closed early).
  const hung = cluster.fake.requests.filter(
    (_, i) => i < scripted && MISBEHAVIOUR[i % MISBEHAVIOUR.length]?.hang,
  );
  expect(hung).toHaveLength(ROUNDS);
  for (const request of hung) {
    expect(await within(10_000, "the hung call given up", request.closed)).toEqual({ early: true });
  }

  const runs = await checkInvariants(cluster, sent);
  const ours = runs.filter((r) => sent.some((m) => m.runId === r.id));
  expect(ours).toHaveLength(RUNS);
  const reasons = new Set<string>(Object.values(RUN_ERROR_CODES));
  for (const run of ours.filter((r) => r.status === "failed")) {
    expect(reasons, `${run.error_code}: ${run.error_message}`).toContain(run.error_code);
  }
  for (const instance of instances) expect(instance.running, `${instance.name} running`).toBe(true);
});
