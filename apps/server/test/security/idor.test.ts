import { SERVER_EVENTS, type TJoinSessionAck } from "@cohort/contracts";
import type { LightMyRequestResponse } from "fastify";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proposeMemories } from "../../src/modules/memory/propose-memories";
import { createTestAccessToken } from "../support/access-tokens";
import { adminClient, logIn, type SignedUp, signUp } from "../support/accounts";
import { createTestApp, listenLocally, type TestApp } from "../support/app";
import type { TestClient } from "../support/client";
import { uploadProcessed } from "../support/documents";
import { createSession, runToEnd, waitForRunEnd } from "../support/runs";
import { balanceOf, setCredits } from "../support/runs-credits";
import { connected, joinSession } from "../support/sockets";
import { parseSse } from "../support/sse";
import { untilIdle } from "../support/wait";
import { addTeamMember } from "../support/workspaces";

/**
 * Advisory class: insecure direct object references. User B, signed in and in good standing,
 * takes the ids of user A's resources (sessions, runs, CoChat conversations, provider keys,
 * sign-ins, checkouts) and tries every route that takes one. Each attempt must answer
 * 404 (never 403, which would confirm the id exists, and never any of A's data) and change
 * nothing of A's. The routes are read from the app's own OpenAPI document: a new route with
 * an id in its path fails this file until it is added to the table below, with the way to
 * make A's resource, or to the short list of routes whose parameter is not a user's object.
 */

const ADMIN = { ADMIN_EMAIL: "admin@idor.test", ADMIN_PASSWORD: "idor-admin-passphrase" };
const SECRET_TITLE = "A's confidential merger plan";
const SECRET_MESSAGE = "A's private question about the merger";
const SECRET_COCHAT = "A's private CoChat about the merger";

let t: TestApp;
let url: string;
let a: SignedUp;
let b: SignedUp;
const sockets: Socket[] = [];

/** A's resources, made once through the API. */
interface Owned {
  sessionId: string;
  runId: string;
  conversationId: string;
  /** A's second sign-in (another browser), so revoking it does not sign A's client out. */
  signInId: string;
  checkoutId: string;
  /** An agent step of A's run (the re-run route's last parameter). */
  stepId: string;
  /** A's personal access token (Settings → Access tokens). */
  accessTokenId: string;
  /** A's uploaded document and one of its passages (chunks). */
  documentId: string;
  chunkId: string;
  /** A memory proposed after A's run. */
  memoryId: string;
  /** A's team workspace, a member of it (C), a pending invitation, A's template, A's share link. */
  teamId: string;
  memberId: string;
  invitationId: string;
  templateId: string;
  shareId: string;
}
let owned: Owned;

beforeAll(async () => {
  t = await createTestApp({
    ...ADMIN,
    SIMULATOR_TOKENS_PER_SECOND: "0",
    // Key tests go nowhere: nothing listens on port 9 (discard).
    ANTHROPIC_BASE_URL: "http://127.0.0.1:9/v1",
  });
  url = await listenLocally(t.app);
  // A proven address: only such accounts send invitations (decision 052).
  a = await signUp(t.app, { verified: true });
  b = await signUp(t.app);
  const admin = await adminClient(t.app, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
  for (const user of [a, b]) {
    // Pro+ for both, so that CoChat's and memory's tier gates are not what stop B.
    const granted = await admin.put(`/api/admin/users/${user.user.id}/tier`, { tier: "pro+" });
    expect(granted.statusCode).toBe(200);
  }

  // Both can pay for a run, so that credits are not what stops B either.
  await setCredits(t.app, a.user.id, 500);
  await setCredits(t.app, b.user.id, 500);
  const session = await createSession(a.client, { title: SECRET_TITLE });
  const started = await runToEnd(a.client, session.id, SECRET_MESSAGE);

  const chat = await a.client.post("/api/cochat/chat", {
    messages: [{ role: "user", content: SECRET_COCHAT }],
  });
  const conversationId = parseSse(chat.body)[0]?.data.session_id as string;

  expect(
    (
      await a.client.put("/api/users/api-keys", {
        provider: "anthropic",
        apiKey: "sk-ant-a-secret-key-1234",
      })
    ).statusCode,
  ).toBe(200);

  const second = await logIn(t.app, a.email, a.password);
  expect(second.response.statusCode).toBe(200);
  const signIns = (await a.client.get("/api/auth/sign-ins")).json().sign_ins as {
    id: string;
    current: boolean;
  }[];
  const signInId = signIns.find((s) => !s.current)?.id as string;

  const accessToken = await createTestAccessToken(a.client);

  await proposeMemories(t.app, {
    workspaceId: a.user.id,
    userId: a.user.id,
    sessionId: session.id,
    runId: started.run_id,
    task: SECRET_MESSAGE,
    answer: "The answer.",
    coordinatorModelId: session.coordinator_model,
  });
  const proposals = await a.client.get(`/api/memory/runs/${started.run_id}/proposals`);
  const memoryId = proposals.json().memories[0]?.id as string;

  const checkout = await a.client.post("/api/billing/purchase-credits", { packageId: "pack_100" });
  expect(checkout.statusCode).toBe(200);

  const detail = (await a.client.get(`/api/sessions/${session.id}`)).json() as {
    runs: { id: string; plan: { steps: { id: string; role: string }[] } | null }[];
  };
  const stepId = detail.runs
    .find((r) => r.id === started.run_id)
    ?.plan?.steps.find((s) => s.role !== "critic")?.id as string;

  const team = (await a.client.post("/api/workspaces", { name: "A's team" })).json().workspace;
  const c = await signUp(t.app);
  await addTeamMember(t.app, team.id, { userId: c.user.id, role: "member" });
  const invitation = await a.client.post(`/api/workspaces/${team.id}/invitations`, {
    email: "invitee@idor.test",
    role: "member",
  });
  const template = await a.client.post("/api/templates", {
    name: "A's setup",
    from_session_id: session.id,
  });
  const share = await a.client.post(`/api/sessions/${session.id}/shares`, {});

  owned = {
    teamId: team.id,
    memberId: c.user.id,
    invitationId: invitation.json().invitation?.id,
    templateId: template.json().template?.id,
    shareId: share.json().share?.id,
    sessionId: session.id,
    runId: started.run_id,
    stepId,
    conversationId,
    signInId,
    checkoutId: checkout.json().sessionId,
    accessTokenId: accessToken.info.id,
    ...(await ownDocument()),
    memoryId,
  };
  expect(Object.values(owned).every(Boolean)).toBe(true);
});

/** A's document, extracted, and one of its passages. */
async function ownDocument() {
  const document = await uploadProcessed(a.client, "merger.md", `# Merger\n\n${SECRET_MESSAGE}`);
  const chunks = (await a.client.get(`/api/documents/${document.id}/chunks`)).json().chunks;
  return { documentId: document.id, chunkId: chunks[0].id as string };
}

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t?.close();
});

// --- The table ------------------------------------------------------------------------------

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

interface OwnedRoute {
  /** A's id for the route's path parameter (or, for BODY_ID_ROUTES, its body). */
  id(o: Owned): string;
  body?: unknown;
  /** What A itself gets for the same request: proves the id is real and the request valid. */
  ownerStatus: number;
  /** The route's own not-found code, when it has one. */
  notFoundCode?: string;
  /** A's ids for the path's later parameters (the first one is `id`). */
  laterParams?(o: Owned): Record<string, string>;
  /** Waits, after A's own request, until the work it started is over. */
  settle?(response: LightMyRequestResponse): Promise<void>;
}

/**
 * Routes whose object needs a fixture of its own (a paused tool call, a generated image, a
 * connected MCP server): their file proves B's 404 (and a viewer's 403) with A's real ids.
 */
const OWNED_ELSEWHERE: Record<string, string> = {
  "POST /api/sessions/{id}/approvals/{approvalId}":
    "approvals.test.ts: a stranger 404, a viewer 403",
  "GET /api/images/{id}": "images.test.ts: a stranger 404, signed out 401",
  "GET /api/share/{token}/images/{id}":
    "images.test.ts: a link serves only its own session's images (another link's: 404)",
  "POST /api/mcp-servers/{id}/refresh": "mcp-servers.test.ts: an outsider 404",
  "DELETE /api/mcp-servers/{id}": "mcp-servers.test.ts: an outsider 404",
  "GET /api/code-files/{id}": "run-code-tool.test.ts: anyone who may not read the session 404",
  "POST /api/sessions/{id}/messages/{messageId}/edit": "branches-forks.test.ts: another user 404",
  "POST /api/sessions/{id}/messages/{messageId}/show": "branches-forks.test.ts: another user 404",
  "POST /api/sessions/{id}/runs/{runId}/show": "branches-forks.test.ts: another user 404",
  "POST /api/sessions/{id}/runs/{runId}/steps/{stepId}/fork":
    "branches-forks.test.ts: another user 404",
  "GET /api/sessions/{id}/runs": "session-run-pages.test.ts: an outsider 404 (needs ?before=)",
  "GET /api/sessions/{id}/runs/{runId}/plan": "steering.test.ts: a stranger 404",
  "POST /api/sessions/{id}/runs/{runId}/plan/start": "steering.test.ts: a stranger 404",
  "POST /api/sessions/{id}/runs/{runId}/lanes/{stepId}/steer": "steering.test.ts: a stranger 404",
  "POST /api/sessions/{id}/runs/{runId}/messages": "steering.test.ts: a stranger 404",
  "POST /api/cochat/conversations/{id}/messages/{messageId}/regenerate":
    "cochat-versions.test.ts: another user the one 404 for every action",
  "POST /api/cochat/conversations/{id}/messages/{messageId}/edit":
    "cochat-versions.test.ts: another user the one 404 for every action",
  "PUT /api/cochat/conversations/{id}/current":
    "cochat-versions.test.ts: another user the one 404 for every action",
  "PATCH /api/cochat/conversations/{id}":
    "cochat-versions.test.ts: another user the one 404 for every action",
};

/** Every parameterised route of the OpenAPI document whose parameter names a user's object. */
const OWNED_ROUTES: Record<string, OwnedRoute> = {
  // First, while A's session is still open for new runs; each waits for its work to end.
  "POST /api/sessions/{id}/runs/{runId}/steps/{stepId}/rerun": {
    id: (o) => o.sessionId,
    laterParams: (o) => ({ runId: o.runId, stepId: o.stepId }),
    body: { model: "coquick", review: false },
    ownerStatus: 202,
    settle: (response) => untilIdle(t.app, response.json().run_id),
  },
  // After the re-run above, whose version 2 it writes the answer with.
  "POST /api/sessions/{id}/runs/{runId}/steps/{stepId}/versions/{version}/synthesize": {
    id: (o) => o.sessionId,
    laterParams: (o) => ({ runId: o.runId, stepId: o.stepId, version: "2" }),
    ownerStatus: 202,
    settle: (response) => untilIdle(t.app, response.json().run_id),
  },
  "POST /api/ai/chat/{runId}/regenerate": {
    id: (o) => o.runId,
    body: {},
    ownerStatus: 202,
    settle: async (response) => {
      await waitForRunEnd(a.client, owned.sessionId, response.json().run_id);
    },
  },
  "GET /api/sessions/{id}": { id: (o) => o.sessionId, ownerStatus: 200 },
  "GET /api/sessions/{id}/approvals": { id: (o) => o.sessionId, ownerStatus: 200 },
  "PATCH /api/sessions/{id}": {
    id: (o) => o.sessionId,
    body: { title: "Taken over by B", budget_credits: 1 },
    ownerStatus: 200,
  },
  "PUT /api/sessions/{id}/status": {
    id: (o) => o.sessionId,
    body: { status: "archived" },
    ownerStatus: 200,
  },
  "GET /api/sessions/{id}/events": {
    id: (o) => o.sessionId,
    ownerStatus: 200,
  },
  "GET /api/sessions/{id}/documents": { id: (o) => o.sessionId, ownerStatus: 200 },
  "GET /api/sessions/{id}/export": { id: (o) => o.sessionId, ownerStatus: 200 },
  "GET /api/sessions/{sessionId}/cost-estimate": { id: (o) => o.sessionId, ownerStatus: 200 },
  "PUT /api/sessions/{id}/documents": {
    id: (o) => o.sessionId,
    body: { document_ids: [] },
    ownerStatus: 200,
  },
  "POST /api/ai/chat/{runId}/cancel": {
    id: (o) => o.runId,
    body: {},
    ownerStatus: 200,
  },
  "GET /api/cochat/conversations/{id}": {
    id: (o) => o.conversationId,
    ownerStatus: 200,
  },
  "DELETE /api/cochat/conversations/{id}": {
    id: (o) => o.conversationId,
    ownerStatus: 200,
  },
  // A's own test reaches no Anthropic (a closed port here) and still answers 200.
  "POST /api/users/api-keys/{provider}/test": {
    id: () => "anthropic",
    ownerStatus: 200,
  },
  "DELETE /api/users/api-keys/{provider}": {
    id: () => "anthropic",
    ownerStatus: 200,
  },
  "DELETE /api/users/access-tokens/{id}": {
    id: (o) => o.accessTokenId,
    ownerStatus: 200,
  },
  "GET /api/memory/runs/{runId}/proposals": { id: (o) => o.runId, ownerStatus: 200 },
  "POST /api/memory/{id}/approve": { id: (o) => o.memoryId, body: {}, ownerStatus: 200 },
  "POST /api/memory/{id}/reject": { id: (o) => o.memoryId, body: {}, ownerStatus: 200 },
  "PATCH /api/memory/{id}": {
    id: (o) => o.memoryId,
    body: { text: "Taken over by B" },
    ownerStatus: 200,
  },
  "DELETE /api/memory/{id}": { id: (o) => o.memoryId, ownerStatus: 200 },
  "DELETE /api/auth/sign-ins/{id}": {
    id: (o) => o.signInId,
    ownerStatus: 200,
  },
  "GET /api/billing/checkouts/{id}": {
    id: (o) => o.checkoutId,
    ownerStatus: 200,
    notFoundCode: "unknown_checkout",
  },
  "GET /api/documents/{id}": { id: (o) => o.documentId, ownerStatus: 200 },
  "GET /api/documents/{id}/chunks": { id: (o) => o.documentId, ownerStatus: 200 },
  "GET /api/documents/{id}/download": { id: (o) => o.documentId, ownerStatus: 200 },
  "GET /api/documents/passages/{chunkId}": { id: (o) => o.chunkId, ownerStatus: 200 },
  "PATCH /api/documents/{id}": {
    id: (o) => o.documentId,
    body: { name: "Taken over by B" },
    ownerStatus: 200,
  },
  "DELETE /api/documents/{id}": { id: (o) => o.documentId, ownerStatus: 200 },
  // Workspaces (decision 040): A's team (B is not a member), template and share link.
  "GET /api/workspaces/{id}": { id: (o) => o.teamId, ownerStatus: 200 },
  "GET /api/workspaces/{id}/members": { id: (o) => o.teamId, ownerStatus: 200 },
  "GET /api/workspaces/{id}/audit": { id: (o) => o.teamId, ownerStatus: 200 },
  "GET /api/workspaces/{id}/credits": { id: (o) => o.teamId, ownerStatus: 200 },
  "GET /api/workspaces/{id}/usage": { id: (o) => o.teamId, ownerStatus: 200 },
  "GET /api/workspaces/{id}/shares": { id: (o) => o.teamId, ownerStatus: 200 },
  "PUT /api/workspaces/{id}/members/{userId}/cap": {
    id: (o) => o.teamId,
    laterParams: (o) => ({ userId: o.memberId }),
    body: { monthly_cap_credits: 10 },
    ownerStatus: 200,
  },
  "PATCH /api/workspaces/{id}/members/{userId}": {
    id: (o) => o.teamId,
    laterParams: (o) => ({ userId: o.memberId }),
    body: { role: "viewer" },
    ownerStatus: 200,
  },
  "DELETE /api/workspaces/{id}/members/{userId}": {
    id: (o) => o.teamId,
    laterParams: (o) => ({ userId: o.memberId }),
    ownerStatus: 200,
  },
  "GET /api/workspaces/{id}/invitations": { id: (o) => o.teamId, ownerStatus: 200 },
  "POST /api/workspaces/{id}/invitations": {
    id: (o) => o.teamId,
    body: { email: "second-invitee@idor.test", role: "viewer" },
    ownerStatus: 201,
  },
  "DELETE /api/workspaces/{id}/invitations/{invitationId}": {
    id: (o) => o.teamId,
    laterParams: (o) => ({ invitationId: o.invitationId }),
    ownerStatus: 200,
  },
  "PATCH /api/workspaces/{id}": {
    id: (o) => o.teamId,
    body: { name: "Taken over by B" },
    ownerStatus: 200,
  },
  // The name A's PATCH just gave it: B sends the right confirmation and still gets 404.
  "DELETE /api/workspaces/{id}": {
    id: (o) => o.teamId,
    body: { confirm_name: "Taken over by B" },
    ownerStatus: 200,
  },
  "GET /api/templates/{id}": { id: (o) => o.templateId, ownerStatus: 200 },
  "PATCH /api/templates/{id}": {
    id: (o) => o.templateId,
    body: { name: "Taken over by B" },
    ownerStatus: 200,
  },
  "POST /api/templates/{id}/sessions": {
    id: (o) => o.templateId,
    body: { title: "B starts A's setup" },
    ownerStatus: 201,
  },
  "DELETE /api/templates/{id}": { id: (o) => o.templateId, ownerStatus: 200 },
  "GET /api/sessions/{id}/shares": { id: (o) => o.sessionId, ownerStatus: 200 },
  "POST /api/sessions/{id}/shares": { id: (o) => o.sessionId, body: {}, ownerStatus: 201 },
  "DELETE /api/shares/{id}": { id: (o) => o.shareId, ownerStatus: 200 },
  "DELETE /api/sessions/{id}": { id: (o) => o.sessionId, ownerStatus: 200 },
};

/** Parameterised routes whose parameter is not one user's object, and why. */
const NOT_USER_OWNED: Record<string, string> = {
  "GET /api/models/by-role/{role}": "an agent role name: the same catalogue for everyone",
  "GET /api/models/{id}": "a catalogue model id: public",
  "POST /api/admin/users/{id}/credits": "administrators only (refusal tested below)",
  "PUT /api/admin/users/{id}/tier": "administrators only (refusal tested below)",
  "GET /api/admin/users/{id}": "administrators only (admin-console.test.ts refuses the rest)",
  "GET /api/admin/users/{id}/ledger": "administrators only",
  "DELETE /api/admin/users/{id}": "administrators only (admin-account-support.test.ts)",
  "POST /api/admin/users/{id}/verification-email": "administrators only",
  "POST /api/admin/users/{id}/verify-email": "administrators only",
  "POST /api/admin/users/{id}/password-reset": "administrators only",
  "PUT /api/admin/users/{id}/disabled": "administrators only",
  "POST /api/admin/users/{id}/revoke-sign-ins": "administrators only",
  "PUT /api/admin/models/{id}": "administrators only; a catalogue model id",
  "GET /api/admin/logs/requests/{requestId}": "administrators only; a request id",
  "GET /api/invitations/{token}":
    "an invitation's secret token: whoever holds the link may preview it (workspaces.test.ts)",
  "GET /api/invitations/{token}/public":
    "an invitation's secret token: the signed-out preview names only inviter, address and workspace",
  "POST /api/invitations/{token}/accept":
    "an invitation's secret token, accepted only by the invited address (workspaces.test.ts)",
  "GET /api/share/{token}": "a share link's secret token: public by the owner's choice",
  "GET /api/share/{token}/events": "a live share link's secret token: public by the owner's choice",
  "DELETE /api/auth/identities/{provider}":
    "a provider name (enum); only ever the signed-in user's own links (firebase-emulator.test.ts)",
};

/** Routes hidden from the OpenAPI document (the dev checkout's HTML pages) that take A's id. */
const HIDDEN_OWNED_ROUTES: Record<string, OwnedRoute> = {
  "GET /api/billing/dev-checkout/{id}": {
    id: (o) => o.checkoutId,
    ownerStatus: 200,
    notFoundCode: "unknown_checkout",
  },
  "POST /api/billing/dev-checkout/{id}/cancel": {
    id: (o) => o.checkoutId,
    ownerStatus: 303,
    notFoundCode: "unknown_checkout",
  },
  "POST /api/billing/dev-checkout/{id}/pay": {
    id: (o) => o.checkoutId,
    notFoundCode: "unknown_checkout",
    ownerStatus: 409, // A cancelled it just before: A hears "cancelled", B only 404
  },
};

/**
 * Routes without a path parameter that take one of A's ids in their body. (POST
 * /api/cochat/chat takes a conversation id too, but one the client chooses, per user: it has
 * its own test below.)
 */
const BODY_ID_ROUTES: Record<string, OwnedRoute> = {
  "POST /api/ai/chat": {
    id: (o) => o.sessionId,
    body: { session_id: "", message: "B writes into A's session" },
    ownerStatus: 202,
    settle: async (response) => {
      await waitForRunEnd(a.client, owned.sessionId, response.json().run_id);
    },
  },
};

function bodyFor(key: string, route: OwnedRoute, id: string): unknown {
  return BODY_ID_ROUTES[key] ? { ...(route.body as object), session_id: id } : route.body;
}

// --- Helpers --------------------------------------------------------------------------------

/** Sends the route's request with `id` (A's, unless given) in its path or body. */
function send(client: TestClient, key: string, route: OwnedRoute, id = route.id(owned)) {
  const [method, template] = key.split(" ") as [Method, string];
  const later = route.laterParams?.(owned) ?? {};
  let first = true;
  const target = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = first ? id : (later[name] ?? id);
    first = false;
    return encodeURIComponent(value);
  });
  if (key.startsWith("POST /api/billing/dev-checkout/")) {
    // The dev checkout's plain HTML forms: same-origin, no CSRF header, form-encoded.
    return client.request(method, target, "", {
      csrf: false,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "http://localhost:3000",
      },
    });
  }
  const body = bodyFor(key, route, id);
  const bodiless = method === "GET" || (method === "DELETE" && body === undefined);
  return client.request(method, target, bodiless ? undefined : body);
}

/** 404, in the one error shape, with nothing of A's in it. */
function expectNotFound(response: LightMyRequestResponse, key: string, code = "not_found") {
  expect(response.statusCode, key).toBe(404);
  expect(response.json().error.code, key).toBe(code);
  for (const secret of [SECRET_TITLE, SECRET_MESSAGE, SECRET_COCHAT, a.email, a.user.id]) {
    expect(response.body, key).not.toContain(secret);
  }
}

/** Snapshot of everything of A's that B's requests could have touched. */
async function stateOfA() {
  const session = (await a.client.get(`/api/sessions/${owned.sessionId}`)).json();
  const conversation = await a.client.get(`/api/cochat/conversations/${owned.conversationId}`);
  const signIns = (await a.client.get("/api/auth/sign-ins")).json().sign_ins as { id: string }[];
  return {
    session: {
      title: session.session?.title,
      status: session.session?.status,
      budget: session.session?.budget_credits,
      messages: session.messages?.length,
      runs: session.runs?.map((r: { id: string; status: string }) => [r.id, r.status]),
    },
    conversation: { status: conversation.statusCode, body: conversation.body },
    keys: (await a.client.get("/api/users/api-keys")).json().keys,
    accessTokens: (await a.client.get("/api/users/access-tokens")).json().tokens,
    documents: (await a.client.get("/api/documents")).json().documents,
    memories: (await a.client.get(`/api/memory/runs/${owned.runId}/proposals`)).json(),
    signIns: signIns.map((s) => s.id).sort(),
    balance: await balanceOf(t.app, a.user.id),
    checkout: (await a.client.get(`/api/billing/dev-checkout/${owned.checkoutId}`)).statusCode,
  };
}

// --- Tests ----------------------------------------------------------------------------------

describe("the route table", () => {
  it("covers every parameterised route of the OpenAPI document", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/openapi.json" })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const parameterised = Object.entries(doc.paths)
      .filter(([path]) => path.includes("{"))
      .flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      );
    expect(parameterised.length).toBeGreaterThan(10);
    const uncovered = parameterised.filter(
      (key) => !OWNED_ROUTES[key] && !NOT_USER_OWNED[key] && !OWNED_ELSEWHERE[key],
    );
    expect(uncovered, "add these routes to OWNED_ROUTES or NOT_USER_OWNED").toEqual([]);
    // And the table does not keep routes that no longer exist.
    const stale = [
      ...Object.keys(OWNED_ROUTES),
      ...Object.keys(NOT_USER_OWNED),
      ...Object.keys(OWNED_ELSEWHERE),
    ].filter((key) => !parameterised.includes(key));
    expect(stale).toEqual([]);
  });
});

describe("user B with user A's ids", () => {
  const all = { ...OWNED_ROUTES, ...HIDDEN_OWNED_ROUTES, ...BODY_ID_ROUTES };

  it.each(Object.keys(all))("%s answers 404 and changes nothing of A's", async (key) => {
    const before = await stateOfA();
    const route = all[key] as OwnedRoute;
    expectNotFound(await send(b.client, key, route), key, route.notFoundCode);
    expect(await stateOfA()).toEqual(before);
  });

  it("answers 404 for unknown ids and for ids that are not ids, never 500", async () => {
    const routes = { ...OWNED_ROUTES, ...BODY_ID_ROUTES };
    for (const [key, route] of Object.entries(routes)) {
      if (key.includes("/api/users/api-keys/{provider}")) continue; // an enum: 400 below
      for (const id of [
        "00000000-0000-4000-8000-000000000000",
        "not-an-id",
        "1",
        "' OR 1=1 --",
        `${route.id(owned)}x`,
      ]) {
        const response = await send(b.client, key, route, id);
        expect([400, 404], `${key} ${id}: ${response.statusCode}`).toContain(response.statusCode);
      }
    }
    expect((await b.client.delete("/api/users/api-keys/not-a-provider")).statusCode).toBe(400);
  });

  it("lists show B only B's own objects", async () => {
    const lists = [
      "/api/sessions",
      "/api/cochat/conversations",
      "/api/users/api-keys",
      "/api/users/access-tokens",
      "/api/memory",
      "/api/memory/export",
      "/api/auth/sign-ins",
      "/api/billing/ledger",
      "/api/billing/summary",
      "/api/users/usage",
      "/api/users/profile",
    ];
    for (const list of lists) {
      const response = await b.client.get(list);
      expect(response.statusCode, list).toBe(200);
      for (const secret of [
        SECRET_TITLE,
        SECRET_COCHAT,
        owned.sessionId,
        owned.conversationId,
        owned.signInId,
        owned.checkoutId,
        owned.accessTokenId,
        owned.memoryId,
        a.user.id,
        a.email,
      ]) {
        expect(response.body, list).not.toContain(secret);
      }
    }
  });

  it("continuing A's CoChat conversation id gives B a conversation of B's own", async () => {
    const before = await stateOfA();
    const response = await b.client.post("/api/cochat/chat", {
      session_id: owned.conversationId,
      messages: [{ role: "user", content: "B continues A's chat" }],
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain(SECRET_COCHAT);
    const mine = (await b.client.get(`/api/cochat/conversations/${owned.conversationId}`)).json();
    expect(JSON.stringify(mine)).not.toContain(SECRET_COCHAT);
    expect(mine.messages.map((m: { content: string }) => m.content)[0]).toBe(
      "B continues A's chat",
    );
    expect(await stateOfA()).toEqual(before);
    // B deleting "its" conversation of that id deletes B's, not A's.
    expect(
      (await b.client.delete(`/api/cochat/conversations/${owned.conversationId}`)).statusCode,
    ).toBe(200);
    expect(await stateOfA()).toEqual(before);
  });

  it("the admin routes refuse B (403, not an administrator) and change nothing of A's", async () => {
    const before = await stateOfA();
    const credits = await b.client.post(`/api/admin/users/${a.user.id}/credits`, {
      delta: -100,
      reason: "B takes A's credits",
    });
    expect(credits.statusCode).toBe(403);
    expect(credits.json().error.code).toBe("forbidden");
    const tier = await b.client.put(`/api/admin/users/${a.user.id}/tier`, { tier: "free" });
    expect(tier.statusCode).toBe(403);
    expect(await stateOfA()).toEqual(before);
  });
});

describe("join-session with A's session id", () => {
  function open(token: string): Socket {
    const socket = connect(url, { transports: ["polling"], reconnection: false, auth: { token } });
    sockets.push(socket);
    return socket;
  }

  it("is refused for B, who then hears nothing of A's runs", async () => {
    const socket = open(b.token);
    await connected(socket);
    const heard: unknown[] = [];
    socket.on(SERVER_EVENTS.runEvent, (event: unknown) => heard.push(event));
    const ack: TJoinSessionAck = await joinSession(socket, owned.sessionId, 0);
    expect(ack).toEqual({ ok: false, error: "not_found" });

    // A's new run in that session streams to A's room only.
    const session = await createSession(a.client, { title: SECRET_TITLE });
    const ownAck: TJoinSessionAck = await joinSession(socket, session.id);
    expect(ownAck).toEqual({ ok: false, error: "not_found" });
    await runToEnd(a.client, session.id, SECRET_MESSAGE);
    expect(heard).toEqual([]);
  });
});

describe("user A with the same requests", () => {
  it("gets the answers B did not (so B's 404s are about ownership)", async () => {
    // Deletes last, and A's own sign-ins very last.
    const routes = { ...HIDDEN_OWNED_ROUTES, ...BODY_ID_ROUTES, ...OWNED_ROUTES };
    for (const [key, route] of Object.entries(routes)) {
      const response = await send(a.client, key, route);
      expect(response.statusCode, `${key}: ${response.body.slice(0, 200)}`).toBe(route.ownerStatus);
      await route.settle?.(response);
    }
  });
});
