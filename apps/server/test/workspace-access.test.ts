import {
  CLIENT_EVENTS,
  ERROR_CODES,
  MEMORY_ROUTES,
  type TDocument,
  type TJoinSessionAck,
  type TSession,
  type TSubscriptionTier,
  WORKSPACE_ERROR_CODES,
  WORKSPACE_MESSAGES,
} from "@cohort/contracts";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspaceMemberRoom } from "../src/platform/realtime-rooms";
import { adminClient, type SignedUp, signUp } from "./support/accounts";
import { createTestApp, listenLocally, type TestApp } from "./support/app";
import type { TestClient } from "./support/client";
import { multipartBody, waitProcessed } from "./support/documents";
import { createSession, runToEnd, sendMessage, waitForRunEnd } from "./support/runs";
import { balanceOf, setCredits } from "./support/runs-credits";
import { socketOpener } from "./support/sockets";
import { createTeam, type Team } from "./support/workspaces";

/**
 * Roles on every workspace resource (decision 040): in a team with an owner, a
 * member and a viewer, the viewer reads everything and gets 403 on every change (it cannot
 * start a run); someone outside the team gets 404 for the team's ids, even when naming the
 * team as `workspace_id`; personal workspaces are untouched.
 */

const ADMIN = { ADMIN_EMAIL: "admin@access.test", ADMIN_PASSWORD: "access-admin-passphrase" };
const SESSION_GONE = "This session does not exist.";
const DOCUMENT_GONE = "Document not found.";
const RUN_GONE = "This run does not exist.";

let t: TestApp;
let url: string;
const opener = socketOpener(() => url);
let owner: SignedUp;
let member: SignedUp;
let viewer: SignedUp;
let outsider: SignedUp;
let team: Team;
/** The owner's session in the team, with one completed run of the member's. */
let teamSession: TSession;
let runId: string;

beforeAll(async () => {
  t = await createTestApp({ ...ADMIN, SIMULATOR_TOKENS_PER_SECOND: "0" });
  url = await listenLocally(t.app);
  [owner, member, viewer, outsider] = [
    await signUp(t.app),
    await signUp(t.app),
    await signUp(t.app),
    await signUp(t.app),
  ];
  for (const who of [owner, member, viewer, outsider]) await setTier(who.user.id, "pro+");
  for (const who of [owner, member, viewer, outsider]) {
    await setCredits(t.app, who.user.id, 100);
  }
  team = await createTeam(t.app, owner.user.id, [
    { userId: member.user.id, role: "member" },
    { userId: viewer.user.id, role: "viewer" },
  ]);
  await setCredits(t.app, team.id, 200);
  teamSession = await createSession(owner.client, { title: "Team plan", workspace_id: team.id });
  const started = await sendMessage(
    member.client,
    teamSession.id,
    "I prefer TypeScript with strict types. Plan the team launch.",
  );
  runId = started.run_id;
  await waitForRunEnd(member.client, teamSession.id, runId);
  await t.app.orchestration.control.idle();
});

afterAll(async () => {
  opener.closeAll();
  await t?.close();
});

async function setTier(userId: string, tier: TSubscriptionTier) {
  const admin = await adminClient(t.app, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
  expect((await admin.put(`/api/admin/users/${userId}/tier`, { tier })).statusCode).toBe(200);
}

function expectViewerRefused(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(403);
  expect(response.json().error).toMatchObject({
    code: WORKSPACE_ERROR_CODES.roleTooLow,
    message: WORKSPACE_MESSAGES.viewerReadOnly,
  });
}

function expectNotFound(response: LightMyRequestResponse, message: string) {
  expect(response.statusCode).toBe(404);
  expect(response.json().error).toMatchObject({ code: ERROR_CODES.notFound, message });
}

function uploadTo(client: TestClient, name: string, text: string, workspaceId?: string) {
  const file = multipartBody(name, Buffer.from(text));
  const boundary = file.contentType.split("boundary=")[1] as string;
  const field = workspaceId
    ? Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="workspace_id"\r\n\r\n${workspaceId}\r\n`,
      )
    : Buffer.alloc(0);
  return client.request("POST", "/api/documents", Buffer.concat([field, file.payload]), {
    headers: { "content-type": file.contentType },
  });
}

async function uploaded(client: TestClient, name: string, text: string, workspaceId?: string) {
  const response = await uploadTo(client, name, text, workspaceId);
  expect(response.statusCode).toBe(201);
  return waitProcessed(client, (response.json().document as TDocument).id);
}

describe("sessions in a team workspace", () => {
  it("members create them; a viewer gets 403 and an outsider 404 for the team", async () => {
    expect(teamSession.workspace_id).toBe(team.id);
    const mine = await createSession(member.client, { workspace_id: team.id });
    expect(mine.workspace_id).toBe(team.id);
    expectViewerRefused(
      await viewer.client.post("/api/sessions", { title: "Nope", workspace_id: team.id }),
    );
    expectNotFound(
      await outsider.client.post("/api/sessions", { title: "Nope", workspace_id: team.id }),
      WORKSPACE_MESSAGES.notFound,
    );
  });

  it("lists the team's sessions to every member, the personal ones by default, 404 outside", async () => {
    const list = async (client: TestClient, query = "") => {
      const response = await client.get(`/api/sessions${query}`);
      return { status: response.statusCode, ids: response.json().sessions?.map(idOf) };
    };
    const idOf = (s: TSession) => s.id;
    for (const who of [owner, member, viewer]) {
      const page = await list(who.client, `?workspace_id=${team.id}`);
      expect(page.status).toBe(200);
      expect(page.ids).toContain(teamSession.id);
    }
    // The personal list stays personal.
    expect((await list(viewer.client)).ids).toEqual([]);
    expect((await list(owner.client)).ids).not.toContain(teamSession.id);
    expectNotFound(
      await outsider.client.get(`/api/sessions?workspace_id=${team.id}`),
      WORKSPACE_MESSAGES.notFound,
    );
  });

  it("a viewer reads the session, its messages, runs and events; an outsider gets 404", async () => {
    const detail = await viewer.client.get(`/api/sessions/${teamSession.id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().session.workspace_id).toBe(team.id);
    expect(detail.json().messages.map((m: { role: string }) => m.role)).toEqual([
      "user",
      "assistant",
    ]);
    expect(detail.json().runs.map((r: { id: string }) => r.id)).toEqual([runId]);
    const events = await viewer.client.get(`/api/sessions/${teamSession.id}/events`);
    expect(events.statusCode).toBe(200);
    expect(events.json().events.length).toBeGreaterThan(0);
    const documents = await viewer.client.get(`/api/sessions/${teamSession.id}/documents`);
    expect(documents.statusCode).toBe(200);

    expectNotFound(await outsider.client.get(`/api/sessions/${teamSession.id}`), SESSION_GONE);
    expectNotFound(
      await outsider.client.get(`/api/sessions/${teamSession.id}/events`),
      SESSION_GONE,
    );
    expectNotFound(
      await outsider.client.get(`/api/sessions/${teamSession.id}/documents`),
      SESSION_GONE,
    );
  });

  it("a viewer cannot edit or change the status; a member can; an outsider gets 404", async () => {
    const path = `/api/sessions/${teamSession.id}`;
    expectViewerRefused(await viewer.client.request("PATCH", path, { title: "Viewer's" }));
    expectViewerRefused(await viewer.client.put(`${path}/status`, { status: "paused" }));
    expectNotFound(await outsider.client.request("PATCH", path, { title: "X" }), SESSION_GONE);
    expectNotFound(await outsider.client.put(`${path}/status`, { status: "paused" }), SESSION_GONE);
    const renamed = await member.client.request("PATCH", path, { title: "Team plan, v2" });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().session.title).toBe("Team plan, v2");
    expect((await member.client.put(`${path}/status`, { status: "paused" })).statusCode).toBe(200);
    expect((await member.client.put(`${path}/status`, { status: "active" })).statusCode).toBe(200);
  });

  it("deletes: the creator or an admin; a viewer 403, another member 403, an outsider 404", async () => {
    const owners = await createSession(owner.client, { workspace_id: team.id });
    const members = await createSession(member.client, { workspace_id: team.id });
    expectViewerRefused(await viewer.client.delete(`/api/sessions/${members.id}`));
    const notAdmin = await member.client.delete(`/api/sessions/${owners.id}`);
    expect(notAdmin.statusCode).toBe(403);
    expect(notAdmin.json().error).toMatchObject({
      code: WORKSPACE_ERROR_CODES.roleTooLow,
      message: WORKSPACE_MESSAGES.roleTooLow("admin"),
    });
    expectNotFound(await outsider.client.delete(`/api/sessions/${owners.id}`), SESSION_GONE);
    expect((await member.client.delete(`/api/sessions/${members.id}`)).statusCode).toBe(200);
    const again = await createSession(member.client, { workspace_id: team.id });
    expect((await owner.client.delete(`/api/sessions/${again.id}`)).statusCode).toBe(200);
    expect((await owner.client.delete(`/api/sessions/${owners.id}`)).statusCode).toBe(200);
  });
});

describe("runs in a team workspace", () => {
  it("a member's run completed there, and the team's pool paid for it", async () => {
    const detail = await owner.client.get(`/api/sessions/${teamSession.id}`);
    expect(detail.json().runs[0]).toMatchObject({ id: runId, status: "completed" });
    const spent = detail.json().runs[0].total_credits as number;
    expect(spent).toBeGreaterThan(0);
    // After the run, its memory proposal (the members are Pro+) is paid from the pool too.
    const { rows } = await t.app.db.query<{ delta: string }>(
      "SELECT delta::text FROM credit_ledger WHERE user_id = $1 AND reference = $2",
      [team.id, `memory:${runId}`],
    );
    const memoryCall = rows.reduce((sum, row) => sum - Number(row.delta) / 100, 0);
    expect((await balanceOf(t.app, team.id)).balance).toBeCloseTo(200 - spent - memoryCall, 2);
    expect((await balanceOf(t.app, member.user.id)).balance).toBe(100);
  });

  it("a viewer cannot start, regenerate, stop or re-run; an outsider gets 404", async () => {
    const message = { session_id: teamSession.id, message: "Viewer's task" };
    expectViewerRefused(await viewer.client.post("/api/ai/chat", message));
    expectNotFound(await outsider.client.post("/api/ai/chat", message), SESSION_GONE);
    expectViewerRefused(await viewer.client.post(`/api/ai/chat/${runId}/regenerate`));
    expectViewerRefused(await viewer.client.post(`/api/ai/chat/${runId}/cancel`));
    expectNotFound(await outsider.client.post(`/api/ai/chat/${runId}/cancel`), RUN_GONE);
    const rerun = `/api/sessions/${teamSession.id}/runs/${runId}/steps/s1/rerun`;
    expectViewerRefused(await viewer.client.post(rerun, { model: "coreason" }));
    expectNotFound(await outsider.client.post(rerun, { model: "coreason" }), SESSION_GONE);
    // Nothing the viewer tried started anything.
    const detail = await viewer.client.get(`/api/sessions/${teamSession.id}`);
    expect(detail.json().runs.map((r: { id: string }) => r.id)).toEqual([runId]);
  });

  it("a member may stop a run of the team's (here one that has ended)", async () => {
    const stopped = await member.client.post(`/api/ai/chat/${runId}/cancel`);
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json()).toMatchObject({ run_id: runId, status: "completed" });
  });
});

describe("joining a team session's socket room", () => {
  function join(token: string, sessionId: string): Promise<TJoinSessionAck> {
    const socket = opener.open({ token });
    return socket.timeout(5_000).emitWithAck(CLIENT_EVENTS.joinSession, { sessionId });
  }

  it("lets a viewer in (and into the member room); an outsider gets not_found", async () => {
    const ack = await join(viewer.token, teamSession.id);
    expect(ack.ok).toBe(true);
    const inRoom = await t.app.realtime.io
      .in(workspaceMemberRoom(team.id, viewer.user.id))
      .fetchSockets();
    expect(inRoom).toHaveLength(1);
    expect(await join(outsider.token, teamSession.id)).toEqual({ ok: false, error: "not_found" });
    const outsiders = await t.app.realtime.io
      .in(workspaceMemberRoom(team.id, outsider.user.id))
      .fetchSockets();
    expect(outsiders).toHaveLength(0);
  });
});

describe("documents in a team workspace", () => {
  let teamDoc: TDocument;

  beforeAll(async () => {
    teamDoc = await uploaded(
      member.client,
      "team.md",
      "# Launch\n\nThe pelican plan ships on Tuesday.",
      team.id,
    );
  });

  it("members upload with workspace_id; a viewer gets 403, an outsider 404", async () => {
    expect(teamDoc.status).toBe("ready");
    expectViewerRefused(await uploadTo(viewer.client, "v.md", "viewer text", team.id));
    expectNotFound(
      await uploadTo(outsider.client, "o.md", "outsider text", team.id),
      WORKSPACE_MESSAGES.notFound,
    );
    const bad = await uploadTo(member.client, "b.md", "text", "not-a-uuid");
    expect(bad.statusCode).toBe(400);
  });

  it("lists and searches the team's documents for every member; 404 for an outsider", async () => {
    for (const who of [owner, member, viewer]) {
      const list = await who.client.get(`/api/documents?workspace_id=${team.id}`);
      expect(list.statusCode).toBe(200);
      expect(list.json().documents.map((d: TDocument) => d.id)).toEqual([teamDoc.id]);
      const search = await who.client.get(
        `/api/documents/search?q=pelican&workspace_id=${team.id}`,
      );
      expect(search.statusCode).toBe(200);
      expect(search.json().passages[0].document_id).toBe(teamDoc.id);
    }
    // Not in anyone's personal list, and the personal search does not find it.
    expect((await member.client.get("/api/documents")).json().documents).toEqual([]);
    expect((await member.client.get("/api/documents/search?q=pelican")).json().passages).toEqual(
      [],
    );
    expectNotFound(
      await outsider.client.get(`/api/documents?workspace_id=${team.id}`),
      WORKSPACE_MESSAGES.notFound,
    );
    expectNotFound(
      await outsider.client.get(`/api/documents/search?q=pelican&workspace_id=${team.id}`),
      WORKSPACE_MESSAGES.notFound,
    );
  });

  it("a viewer gets, reads and downloads it; an outsider gets 404 for each", async () => {
    const base = `/api/documents/${teamDoc.id}`;
    expect((await viewer.client.get(base)).statusCode).toBe(200);
    const chunks = await viewer.client.get(`${base}/chunks`);
    expect(chunks.statusCode).toBe(200);
    const chunkId = chunks.json().chunks[0].id as string;
    expect((await viewer.client.get(`/api/documents/passages/${chunkId}`)).statusCode).toBe(200);
    const download = await viewer.client.get(`${base}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe("# Launch\n\nThe pelican plan ships on Tuesday.");
    for (const path of [base, `${base}/chunks`, `${base}/download`]) {
      expectNotFound(await outsider.client.get(path), DOCUMENT_GONE);
    }
    const passage = await outsider.client.get(`/api/documents/passages/${chunkId}`);
    expect(passage.statusCode).toBe(404);
  });

  it("renames and deletes: the uploader or an admin; a viewer 403, an outsider 404", async () => {
    const base = `/api/documents/${teamDoc.id}`;
    expectViewerRefused(await viewer.client.request("PATCH", base, { name: "viewer.md" }));
    expectViewerRefused(await viewer.client.delete(base));
    expectNotFound(
      await outsider.client.request("PATCH", base, { name: "outsider.md" }),
      DOCUMENT_GONE,
    );
    expectNotFound(await outsider.client.delete(base), DOCUMENT_GONE);
    const renamed = await member.client.request("PATCH", base, { name: "plan.md" });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().document.name).toBe("plan.md");
    const byOwner = await owner.client.request("PATCH", base, { name: "launch.md" });
    expect(byOwner.json().document.name).toBe("launch.md");

    // Another member may not touch the uploader's document.
    const owners = await uploaded(owner.client, "owner.md", "Owner's notes on pelicans", team.id);
    const notAdmin = await member.client.delete(`/api/documents/${owners.id}`);
    expect(notAdmin.statusCode).toBe(403);
    expect(notAdmin.json().error.code).toBe(WORKSPACE_ERROR_CODES.roleTooLow);
    // An owner deletes anyone's.
    const extra = await uploaded(member.client, "extra.md", "Extra pelican notes", team.id);
    expect((await owner.client.delete(`/api/documents/${extra.id}`)).statusCode).toBe(200);
    expect((await owner.client.delete(`/api/documents/${owners.id}`)).statusCode).toBe(200);
    expectNotFound(await member.client.get(`/api/documents/${extra.id}`), DOCUMENT_GONE);
  });

  it("attaches only the session's workspace's documents, by members only", async () => {
    const path = `/api/sessions/${teamSession.id}/documents`;
    expectViewerRefused(await viewer.client.put(path, { document_ids: [teamDoc.id] }));
    expectNotFound(await outsider.client.put(path, { document_ids: [teamDoc.id] }), SESSION_GONE);
    const personal = await uploaded(member.client, "mine.md", "My own pelican notes");
    const mixed = await member.client.put(path, { document_ids: [teamDoc.id, personal.id] });
    expect(mixed.statusCode).toBe(404);
    expect(mixed.json().error).toMatchObject({
      message: "One of these documents does not exist.",
      details: { document_ids: [personal.id] },
    });
    const attached = await member.client.put(path, { document_ids: [teamDoc.id] });
    expect(attached.statusCode).toBe(200);
    expect(attached.json().documents.map((d: { id: string }) => d.id)).toEqual([teamDoc.id]);
    const seen = await viewer.client.get(path);
    expect(seen.json().documents.map((d: { id: string }) => d.id)).toEqual([teamDoc.id]);
    // And a personal session cannot take the team's document.
    const own = await createSession(member.client);
    const refused = await member.client.put(`/api/sessions/${own.id}/documents`, {
      document_ids: [teamDoc.id],
    });
    expect(refused.statusCode).toBe(404);
  });

  it("a member's run in the team session cites the team's document", async () => {
    const { run_id, events } = await runToEnd(
      member.client,
      teamSession.id,
      "When does the pelican plan ship?",
    );
    expect(events.some((e) => e.type === "run.completed")).toBe(true);
    const detail = await viewer.client.get(`/api/sessions/${teamSession.id}`);
    const run = detail.json().runs.find((r: { id: string }) => r.id === run_id);
    expect(run.plan.documents.map((d: { id: string }) => d.id)).toEqual([teamDoc.id]);
    await t.app.orchestration.control.idle();
  });
});

describe("memories of a team workspace", () => {
  it("a team run's proposals are the team's: members see them, an outsider gets 404", async () => {
    const proposed = await viewer.client.get(
      `${MEMORY_ROUTES.list}?status=proposed&workspace_id=${team.id}`,
    );
    expect(proposed.statusCode).toBe(200);
    const memories = proposed.json().memories as { id: string; source_session_id: string }[];
    expect(memories.length).toBeGreaterThan(0);
    expect(memories.every((m) => m.source_session_id === teamSession.id)).toBe(true);
    // Not in the member's personal workspace.
    const personal = await member.client.get(`${MEMORY_ROUTES.list}?status=proposed`);
    expect(personal.json().memories).toEqual([]);
    expectNotFound(
      await outsider.client.get(`${MEMORY_ROUTES.list}?workspace_id=${team.id}`),
      WORKSPACE_MESSAGES.notFound,
    );
    const runProposals = await viewer.client.get(MEMORY_ROUTES.runProposals(runId));
    expect(runProposals.statusCode).toBe(200);
    expectNotFound(await outsider.client.get(MEMORY_ROUTES.runProposals(runId)), RUN_GONE);
  });

  it("a viewer cannot approve; the member whose run proposed it can; an outsider gets 404", async () => {
    const proposed = await member.client.get(
      `${MEMORY_ROUTES.list}?status=proposed&workspace_id=${team.id}`,
    );
    const [first] = proposed.json().memories as { id: string }[];
    const id = first?.id as string;
    expectViewerRefused(await viewer.client.post(MEMORY_ROUTES.approve(id), {}));
    const outside = await outsider.client.post(MEMORY_ROUTES.approve(id), {});
    expect(outside.statusCode).toBe(404);
    expect((await member.client.post(MEMORY_ROUTES.approve(id), {})).statusCode).toBe(200);
    const approved = await viewer.client.get(`${MEMORY_ROUTES.list}?workspace_id=${team.id}`);
    expect(approved.json().memories.map((m: { id: string }) => m.id)).toContain(id);
  });
});

describe("personal workspaces", () => {
  it("stay private: another user's personal ids and workspace answer 404", async () => {
    const session = await createSession(outsider.client, { title: "Private" });
    expect(session.workspace_id).toBe(outsider.user.id);
    expectNotFound(await owner.client.get(`/api/sessions/${session.id}`), SESSION_GONE);
    expectNotFound(
      await owner.client.get(`/api/sessions?workspace_id=${outsider.user.id}`),
      WORKSPACE_MESSAGES.notFound,
    );
    expectNotFound(
      await owner.client.post("/api/sessions", {
        title: "In someone else's",
        workspace_id: outsider.user.id,
      }),
      WORKSPACE_MESSAGES.notFound,
    );
  });
});
