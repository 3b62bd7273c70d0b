import { afterAll, beforeAll, expect, it } from "vitest";
import { sessionEvents } from "./support/api";
import { DRAFT_TEXT, FaultCluster, ONE_CODER_PLAN } from "./support/cluster";
import { checkInvariants, type SentMessage, waitForQuiet } from "./support/invariants";
import { longDraft } from "./support/texts";
import { waitFor } from "./support/wait";

/**
 * PostgreSQL restarted (a fast shutdown, as `pg_ctlcluster … restart` does) while runs stream
 * on two instances: every run ends completed, or failed with a reason, nothing is lost or
 * left held, and both instances serve new runs once the database is back.
 */
let cluster: FaultCluster;

beforeAll(async () => {
  cluster = await FaultCluster.start({ instances: 2 });
});
afterAll(async () => {
  await cluster?.close();
});

it("ends every run cleanly when PostgreSQL restarts mid-run, and serves new ones after", async () => {
  cluster.reportOnFailure();
  const instances = [cluster.instance(0), cluster.instance(1)];
  // Every answer streams slowly (plans too), so the runs are mid-stream when it restarts.
  cluster.fake.defaultReply = { text: longDraft(30), json: ONE_CODER_PLAN, chunkDelayMs: 100 };
  const users = await Promise.all([cluster.payingUser(), cluster.payingUser()]);
  const sent: SentMessage[] = await Promise.all(
    [0, 1, 2, 3, 4, 5].map((i) =>
      cluster.sendInNewSession(
        instances[i % 2] ?? cluster.instance(0),
        users[i % 2] ?? users[0],
        `Write parser number ${i + 1}`,
      ),
    ),
  );
  await waitFor(20_000, "every run streaming its Coder's draft", async () => {
    const streaming = await Promise.all(
      sent.map(async (m) =>
        (await sessionEvents(cluster.instance(0).url, m.token, m.sessionId)).some(
          (e) => e.type === "agent.delta",
        ),
      ),
    );
    return streaming.every(Boolean) ? true : undefined;
  });

  await cluster.postgres.restart();

  for (const instance of instances) await instance.waitReady(30_000);
  await waitForQuiet(cluster, 60_000);
  // After the restart: a run on each instance, answered at once, completes.
  cluster.fake.defaultReply = { text: DRAFT_TEXT, json: ONE_CODER_PLAN };
  const after = await Promise.all(
    instances.map((instance, i) =>
      cluster.sendInNewSession(instance, users[i] ?? users[0], `After the restart ${i + 1}`),
    ),
  );
  sent.push(...after);
  await waitForQuiet(cluster, 30_000);

  const runs = await checkInvariants(cluster, sent);
  for (const m of after) {
    expect(runs.find((r) => r.id === m.runId)?.status, `run after the restart on ${m.text}`).toBe(
      "completed",
    );
  }
  for (const instance of instances) expect(instance.running).toBe(true);
});
