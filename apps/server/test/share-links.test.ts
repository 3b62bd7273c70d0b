import {
  SHARE_MESSAGES,
  SHARE_TOKEN_PATTERN,
  type TSharedView,
  type TShareLink,
} from "@cohort/contracts";
import { describe, expect, it } from "vitest";
import { type SignedUp, signUp } from "./support/accounts";
import { listeningAppForBlock } from "./support/app";
import { TestClient } from "./support/client";
import { CODER_AND_CRITIC, createSession, runToEnd, sendMessage } from "./support/runs";
import { signUpWithCredits } from "./support/runs-credits";
import { parseSse, type SseEvent } from "./support/sse";
import { createTeam } from "./support/workspaces";

/** Read-only share links to a session or one run (decision 045): access, filtering, revocation. */
const t = listeningAppForBlock({ SIMULATOR_TOKENS_PER_SECOND: "0", SIGNUP_CREDITS: "0" });

function owner(): Promise<SignedUp> {
  return signUpWithCredits(t.app, 200, { firstName: "Grace", lastName: "Hopper" });
}

/** A session of `who` with one completed run per message. */
async function sessionWithRuns(who: SignedUp, messages: string[]) {
  const session = await createSession(who.client, { title: "Launch plan", ...CODER_AND_CRITIC });
  const runIds: string[] = [];
  for (const message of messages) {
    const { run_id } = await runToEnd(who.client, session.id, message);
    runIds.push(run_id);
  }
  return { session, runIds };
}

async function share(client: TestClient, sessionId: string, body: Record<string, unknown> = {}) {
  const response = await client.post(`/api/sessions/${sessionId}/shares`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { share: TShareLink; url: string };
}

/** What a signed-out stranger gets for the token. */
function view(token: string) {
  return new TestClient(t.app, "203.0.113.7").get(`/api/share/${token}`);
}

describe("making share links", () => {
  it("needs member or above in the session's workspace: a viewer gets 403, an outsider 404", async () => {
    const grace = await owner();
    const viewer = await signUp(t.app);
    const member = await signUp(t.app);
    const outsider = await signUp(t.app);
    const team = await createTeam(t.app, grace.user.id, [
      { userId: viewer.user.id, role: "viewer" },
      { userId: member.user.id, role: "member" },
    ]);
    const session = await createSession(grace.client, { title: "Team plan" });
    await t.db.query("UPDATE sessions SET workspace_id = $1 WHERE id = $2", [team.id, session.id]);

    const denied = await viewer.client.post(`/api/sessions/${session.id}/shares`, {});
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error).toMatchObject({
      code: "workspace_role_too_low",
      message: "Viewers can read this workspace but not change it.",
    });
    expect((await viewer.client.get(`/api/sessions/${session.id}/shares`)).statusCode).toBe(403);
    const stranger = await outsider.client.post(`/api/sessions/${session.id}/shares`, {});
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().error).toEqual({
      code: "not_found",
      message: "This session does not exist.",
    });
    expect((await outsider.client.get(`/api/sessions/${session.id}/shares`)).statusCode).toBe(404);

    const made = await share(member.client, session.id);
    expect(made.url).toBe(`${t.app.config.publicUrl}/share/${made.share.token}`);
    expect(made.share).toMatchObject({
      session_id: session.id,
      run_id: null,
      status: "active",
      show_costs: false,
      show_names: false,
      live: false,
      expires_at: null,
      view_count: 0,
    });
    const list = (await grace.client.get(`/api/sessions/${session.id}/shares`)).json();
    expect(list.shares.map((s: TShareLink) => s.id)).toEqual([made.share.id]);
    // The owner can copy the link again later: the list has it.
    expect(list.shares[0].url).toBe(made.url);

    // Revoking: the creator or an admin; another member may not, a stranger sees nothing.
    const second = await share(grace.client, session.id);
    expect((await member.client.delete(`/api/shares/${second.share.id}`)).statusCode).toBe(403);
    expect((await outsider.client.delete(`/api/shares/${second.share.id}`)).statusCode).toBe(404);
    const revoked = await member.client.delete(`/api/shares/${made.share.id}`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().share).toMatchObject({ id: made.share.id, status: "revoked" });
    expect((await grace.client.delete(`/api/shares/${second.share.id}`)).statusCode).toBe(200);
  });

  it("makes unguessable tokens: 32 random bytes, base64url, never repeated", async () => {
    const grace = await owner();
    const session = await createSession(grace.client, { title: "Tokens" });
    const tokens = new Set<string>();
    for (let i = 0; i < 20; i++) tokens.add((await share(grace.client, session.id)).share.token);
    expect(tokens.size).toBe(20);
    for (const token of tokens) {
      expect(token).toMatch(SHARE_TOKEN_PATTERN);
      expect(Buffer.from(token, "base64url")).toHaveLength(32);
    }
    // 20 × 32 bytes: every byte value shows up about 2.5 times; a counter or a timestamp
    // would leave most of them out.
    const bytes = new Set([...tokens].flatMap((token) => [...Buffer.from(token, "base64url")]));
    expect(bytes.size).toBeGreaterThan(200);
  });

  it("refuses a run of another session", async () => {
    const grace = await owner();
    const { runIds } = await sessionWithRuns(grace, ["Write a haiku."]);
    const other = await createSession(grace.client, { title: "Other" });
    const response = await grace.client.post(`/api/sessions/${other.id}/shares`, {
      run_id: runIds[0],
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe(SHARE_MESSAGES.runNotInSession);
  });
});

describe("the public view", () => {
  it("shows the session without costs, names or emails unless the owner chose them", async () => {
    const grace = await owner();
    const { session, runIds } = await sessionWithRuns(grace, ["Plan the launch."]);
    const plain = await share(grace.client, session.id);

    const response = await view(plain.share.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers["x-robots-tag"]).toBe("noindex, nofollow");
    const shared = response.json() as TSharedView;
    expect(shared.session).toMatchObject({
      title: "Launch plan",
      created_by: null,
      spent_credits: null,
    });
    expect(shared.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(shared.messages[0]?.content).toBe("Plan the launch.");
    const run = shared.runs[0];
    expect(run).toMatchObject({ id: runIds[0], status: "completed", total_credits: null });
    expect(run?.asked_by).toBeNull();
    expect(run?.plan?.steps.map((s) => s.role)).toEqual(["coder", "critic"]);
    expect(run?.steps.length).toBeGreaterThan(2);
    for (const step of run?.steps ?? []) expect(step.credits).toBeNull();
    expect(run?.steps.find((s) => s.kind === "agent")?.output).not.toBe("");
    expect(run?.critic_score).not.toBeNull();
    expect(response.body).not.toContain(grace.email);
    expect(response.body).not.toContain("Grace");
    expect(response.body).not.toMatch(/"(total_|run_|session_spent_)?credits":\d/);

    const open = await share(grace.client, session.id, { show_costs: true, show_names: true });
    const full = await view(open.share.token);
    const fullView = full.json() as TSharedView;
    const stored = (await grace.client.get(`/api/sessions/${session.id}`)).json();
    expect(fullView.runs[0]?.total_credits).toBe(stored.runs[0].total_credits);
    expect(fullView.runs[0]?.total_credits).toBeGreaterThan(0);
    expect(fullView.session.spent_credits).toBe(stored.session.spent_credits);
    expect(fullView.session.created_by).toBe("Grace Hopper");
    expect(fullView.runs[0]?.asked_by).toBe("Grace Hopper");
    // Names, yes; email addresses never.
    expect(full.body).not.toContain(grace.email);

    const list = (await grace.client.get(`/api/sessions/${session.id}/shares`)).json();
    const counted = list.shares.find((s: TShareLink) => s.id === plain.share.id);
    expect(counted.view_count).toBe(1);
    expect(counted.last_viewed_at).not.toBeNull();
  });

  it("shows only the shared run of a run link", async () => {
    const grace = await owner();
    const { session, runIds } = await sessionWithRuns(grace, ["First question.", "Second one."]);
    const made = await share(grace.client, session.id, { run_id: runIds[1] });
    expect(made.share.run_id).toBe(runIds[1]);
    const shared = (await view(made.share.token)).json() as TSharedView;
    expect(shared.share).toMatchObject({ kind: "run", run_id: runIds[1] });
    expect(shared.runs.map((r) => r.id)).toEqual([runIds[1]]);
    expect(shared.messages.map((m) => m.content)[0]).toBe("Second one.");
    expect(shared.messages).toHaveLength(2);
    expect(JSON.stringify(shared)).not.toContain("First question.");
  });

  it("answers the same 404 for unknown, revoked and expired links, at once", async () => {
    const grace = await owner();
    const session = await createSession(grace.client, { title: "Short-lived" });
    const revoked = await share(grace.client, session.id);
    const expiring = await share(grace.client, session.id, { expires_in_days: 1 });
    expect(Date.parse(expiring.share.expires_at ?? "")).toBeGreaterThan(Date.now());
    expect((await view(revoked.share.token)).statusCode).toBe(200);
    expect((await view(expiring.share.token)).statusCode).toBe(200);

    expect((await grace.client.delete(`/api/shares/${revoked.share.id}`)).statusCode).toBe(200);
    await t.db.query(
      "UPDATE share_links SET expires_at = now() - interval '1 second' WHERE id = $1",
      [expiring.share.id],
    );
    const unknown = await view("A".repeat(43));
    const malformed = await view("nope");
    const answers = [
      await view(revoked.share.token),
      await view(expiring.share.token),
      unknown,
      malformed,
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({
        error: { code: "not_found", message: SHARE_MESSAGES.notFound },
      });
      expect(answer.headers["x-robots-tag"]).toBe("noindex, nofollow");
    }
    const list = (await grace.client.get(`/api/sessions/${session.id}/shares`)).json();
    expect(list.shares.map((s: TShareLink) => s.status).sort()).toEqual(["expired", "revoked"]);
  });

  it("serves the share page itself with noindex", async () => {
    const page = await new TestClient(t.app).get(`/share/${"B".repeat(43)}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers["x-robots-tag"]).toBe("noindex, nofollow");
    expect(page.body).toContain('<meta name="robots" content="noindex" />');
  });
});

/** Reads a live stream over real HTTP, frame by frame. */
async function openStream(token: string, after = 0) {
  const controller = new AbortController();
  const response = await fetch(`${t.url}/api/share/${token}/events?after=${after}`, {
    signal: controller.signal,
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let done = false;
  const received: SseEvent[] = [];
  /** Reads until `until` is true of what arrived, or the stream ends. */
  const readUntil = async (until: (events: SseEvent[]) => boolean) => {
    while (!until(received) && !done) {
      const chunk = await reader.read();
      if (chunk.done) {
        done = true;
        break;
      }
      buffer += decoder.decode(chunk.value, { stream: true });
      const end = buffer.lastIndexOf("\n\n");
      if (end >= 0) {
        received.push(...parseSse(buffer.slice(0, end + 2)));
        buffer = buffer.slice(end + 2);
      }
    }
    return received;
  };
  return {
    response,
    received,
    readUntil,
    ended: () => done,
    close: () => controller.abort(),
  };
}

describe("live links", () => {
  it("stream a run's events as they happen, without costs, and end when revoked", async () => {
    const grace = await owner();
    const session = await createSession(grace.client, { title: "Live", ...CODER_AND_CRITIC });
    const made = await share(grace.client, session.id, { live: true });
    const before = (await view(made.share.token)).json() as TSharedView;
    expect(before.share.live).toBe(true);

    const stream = await openStream(made.share.token, before.last_seq);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get("content-type")).toContain("text/event-stream");
    expect(stream.response.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    await stream.readUntil((events) => events.some((e) => e.event === "open"));

    const { run_id } = await sendMessage(grace.client, session.id, "Think out loud.");
    const events = await stream.readUntil((all) =>
      all.some((e) => e.event === "run" && e.data.type === "run.completed"),
    );
    const run = events.filter((e) => e.event === "run").map((e) => e.data);
    expect(run[0]).toMatchObject({ type: "run.started", run_id });
    expect(run.map((e) => e.type)).toContain("agent.delta");
    expect(run.map((e) => e.type)).toContain("critic.verdict");
    const seqs = run.map((e) => e.seq as number);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // No costs and never the account's balance.
    expect(run.map((e) => e.type)).not.toContain("credits.changed");
    expect(run.at(-1)).toMatchObject({ type: "run.completed", total_credits: null });
    for (const event of run.filter((e) => e.type === "agent.done"))
      expect(event.credits).toBeNull();

    expect((await grace.client.delete(`/api/shares/${made.share.id}`)).statusCode).toBe(200);
    const last = await stream.readUntil(() => false);
    expect(stream.ended()).toBe(true);
    expect(last.at(-1)).toEqual({ event: "end", data: { reason: "gone" } });
    expect((await fetch(`${t.url}/api/share/${made.share.token}/events`)).status).toBe(404);
  });

  it("has no stream for a link that is not live", async () => {
    const grace = await owner();
    const session = await createSession(grace.client, { title: "Still" });
    const made = await share(grace.client, session.id);
    const response = await new TestClient(t.app).get(`/api/share/${made.share.token}/events`);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe(SHARE_MESSAGES.notFound);
  });
});
