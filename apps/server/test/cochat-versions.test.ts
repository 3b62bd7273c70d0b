import {
  COCHAT_ERROR_CODES,
  ERROR_CODES,
  type TCochatConversationResponse,
  ZCochatConversationResponse,
  ZCochatConversationsResponse,
} from "@cohort/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminClient, type SignedUp, signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import type { TestClient } from "./support/client";
import { FakeProviderServer } from "./support/fake-provider/fake-provider-server";
import { parseSse } from "./support/sse";

/**
 * CoChat's message actions over HTTP (decision 068): regenerate an answer and edit a question
 * in place make versions; the branch on screen is what GET returns and what the model is
 * sent next; paging a version switches the branch and survives a new read; rename; and for
 * another user every one of these is the same 404. Models: a local server speaking OpenAI's
 * wire format, which records what it was sent.
 */
const ADMIN = { ADMIN_EMAIL: "admin@versions.test", ADMIN_PASSWORD: "versions-admin-passphrase" };

let t: TestApp;
let openai: FakeProviderServer;
let pro: SignedUp;
let other: SignedUp;

async function userWithTier(tier: "free" | "pro") {
  const signedUp = await signUp(t.app);
  if (tier !== "free") {
    const admin = await adminClient(t.app, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
    expect(
      (await admin.put(`/api/admin/users/${signedUp.user.id}/tier`, { tier })).statusCode,
    ).toBe(200);
  }
  return signedUp;
}

beforeAll(async () => {
  openai = await FakeProviderServer.start();
  t = await createTestApp({
    ...ADMIN,
    OPENAI_API_KEY: "sk-hosted",
    OPENAI_BASE_URL: openai.baseUrls.openai,
    OPENAI_API: "chat",
    MODEL_MAX_ATTEMPTS: "1",
  });
  pro = await userWithTier("pro");
  other = await userWithTier("pro");
}, 120_000);
afterAll(async () => {
  await t?.close();
  await openai?.close();
});
beforeEach(() => openai.reset());

const MODEL = "gpt-4o";

async function read(client: TestClient, id: string): Promise<TCochatConversationResponse> {
  const response = await client.get(`/api/cochat/conversations/${id}`);
  expect(response.statusCode).toBe(200);
  return ZCochatConversationResponse.parse(response.json());
}

function doneOf(body: string) {
  const events = parseSse(body);
  expect(events.at(-1)?.event).toBe("done");
  return events.at(-1)?.data as { message_id: string };
}

/** A conversation of two turns: "Q1" → "A1", "Q2" → "A2". */
async function twoTurns(id: string) {
  openai.next({ text: "A1" }, { text: "A2" });
  doneOf(
    (
      await pro.client.post("/api/cochat/chat", {
        session_id: id,
        model: MODEL,
        messages: [{ role: "user", content: "Q1" }],
      })
    ).body,
  );
  doneOf(
    (
      await pro.client.post("/api/cochat/chat", {
        session_id: id,
        model: MODEL,
        messages: [
          { role: "user", content: "Q1" },
          { role: "assistant", content: "A1" },
          { role: "user", content: "Q2" },
        ],
      })
    ).body,
  );
  return read(pro.client, id);
}

const texts = (c: TCochatConversationResponse) => c.messages.map((m) => m.content);

describe("CoChat versions", () => {
  it("regenerates an answer as a new version, sending the branch up to its question", async () => {
    const start = await twoTurns("cochat-regen-1");
    expect(texts(start)).toEqual(["Q1", "A1", "Q2", "A2"]);
    const a1 = start.messages[1];
    expect(a1?.version_ids).toEqual([a1?.id]);

    openai.next({ text: "A1, second version" });
    const regenerated = await pro.client.post(
      `/api/cochat/conversations/cochat-regen-1/messages/${a1?.id}/regenerate`,
      { temperature: 0.3 },
    );
    expect(regenerated.statusCode).toBe(200);
    const done = doneOf(regenerated.body);
    // The model was sent the branch up to the question, not what followed it.
    expect(openai.requests.at(-1)?.body.messages).toEqual([{ role: "user", content: "Q1" }]);
    expect(openai.requests.at(-1)?.body).toMatchObject({ model: MODEL, temperature: 0.3 });

    const after = await read(pro.client, "cochat-regen-1");
    expect(texts(after)).toEqual(["Q1", "A1, second version"]);
    expect(after.messages[1]?.id).toBe(done.message_id);
    expect(after.messages[1]?.version_ids).toEqual([a1?.id, done.message_id]);

    // Paging back to version 1 brings its continuation back, and stays after a new read.
    const paged = await pro.client.put("/api/cochat/conversations/cochat-regen-1/current", {
      message_id: a1?.id,
    });
    expect(paged.statusCode).toBe(200);
    expect(texts(ZCochatConversationResponse.parse(paged.json()))).toEqual([
      "Q1",
      "A1",
      "Q2",
      "A2",
    ]);
    expect(texts(await read(pro.client, "cochat-regen-1"))).toEqual(["Q1", "A1", "Q2", "A2"]);

    // A message sent now follows the branch on screen: the model gets exactly it.
    openai.next({ text: "A3" });
    doneOf(
      (
        await pro.client.post("/api/cochat/chat", {
          session_id: "cochat-regen-1",
          model: MODEL,
          parent_id: start.messages[3]?.id,
          messages: [
            { role: "user", content: "Q1" },
            { role: "assistant", content: "A1" },
            { role: "user", content: "Q2" },
            { role: "assistant", content: "A2" },
            { role: "user", content: "Q3" },
          ],
        })
      ).body,
    );
    const third = await read(pro.client, "cochat-regen-1");
    expect(texts(third)).toEqual(["Q1", "A1", "Q2", "A2", "Q3", "A3"]);
    expect(third.messages[4]?.parent_id).toBe(start.messages[3]?.id);
  });

  it("edits a question in place: a new branch, answered from the messages before it", async () => {
    const start = await twoTurns("cochat-edit-1");
    const q2 = start.messages[2];
    openai.next({ text: "A2 for the edited question" });
    const edited = await pro.client.post(
      `/api/cochat/conversations/cochat-edit-1/messages/${q2?.id}/edit`,
      { content: "  Q2, edited  " },
    );
    expect(edited.statusCode).toBe(200);
    doneOf(edited.body);
    expect(openai.requests.at(-1)?.body.messages).toEqual([
      { role: "user", content: "Q1" },
      { role: "assistant", content: "A1" },
      { role: "user", content: "Q2, edited" },
    ]);
    const after = await read(pro.client, "cochat-edit-1");
    expect(texts(after)).toEqual(["Q1", "A1", "Q2, edited", "A2 for the edited question"]);
    expect(after.messages[2]?.version_ids).toEqual([q2?.id, after.messages[2]?.id]);

    // Editing the first question makes a second first message.
    openai.next({ text: "Another start" });
    const first = await pro.client.post(
      `/api/cochat/conversations/cochat-edit-1/messages/${start.messages[0]?.id}/edit`,
      { content: "Q1 again" },
    );
    doneOf(first.body);
    expect(openai.requests.at(-1)?.body.messages).toEqual([{ role: "user", content: "Q1 again" }]);
    const rooted = await read(pro.client, "cochat-edit-1");
    expect(texts(rooted)).toEqual(["Q1 again", "Another start"]);
    expect(rooted.messages[0]?.version_ids).toHaveLength(2);

    // Back to the first version of Q1: its newest continuation (the edited Q2's branch).
    await pro.client.put("/api/cochat/conversations/cochat-edit-1/current", {
      message_id: start.messages[0]?.id,
    });
    expect(texts(await read(pro.client, "cochat-edit-1"))).toEqual([
      "Q1",
      "A1",
      "Q2, edited",
      "A2 for the edited question",
    ]);
  });

  it("renames a conversation", async () => {
    await twoTurns("cochat-rename-1");
    const renamed = await pro.client.patch("/api/cochat/conversations/cochat-rename-1", {
      title: "  Questions one and two ",
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().conversation.title).toBe("Questions one and two");
    const { conversations } = ZCochatConversationsResponse.parse(
      (await pro.client.get("/api/cochat/conversations")).json(),
    );
    expect(conversations.find((c) => c.id === "cochat-rename-1")?.title).toBe(
      "Questions one and two",
    );
  });

  it("refuses bad input with a 4xx, changing nothing", async () => {
    const start = await twoTurns("cochat-bad-1");
    const [q1, a1] = start.messages;
    const base = "/api/cochat/conversations/cochat-bad-1";
    const expectError = async (
      response: { statusCode: number; json(): { error: { code: string } } },
      status: number,
      code: string,
    ) => {
      expect(response.statusCode).toBe(status);
      expect(response.json().error.code).toBe(code);
    };
    await expectError(
      await pro.client.post(`${base}/messages/${q1?.id}/regenerate`, {}),
      400,
      COCHAT_ERROR_CODES.wrongRole,
    );
    await expectError(
      await pro.client.post(`${base}/messages/${a1?.id}/edit`, { content: "x" }),
      400,
      COCHAT_ERROR_CODES.wrongRole,
    );
    await expectError(
      await pro.client.post(`${base}/messages/${q1?.id}/edit`, { content: "   " }),
      400,
      ERROR_CODES.validationFailed,
    );
    await expectError(
      await pro.client.post(`${base}/messages/not-a-uuid/regenerate`, {}),
      400,
      ERROR_CODES.validationFailed,
    );
    await expectError(
      await pro.client.post(`${base}/messages/${a1?.id}/regenerate`, { temperature: 5 }),
      400,
      ERROR_CODES.validationFailed,
    );
    await expectError(
      await pro.client.patch(base, { title: "" }),
      400,
      ERROR_CODES.validationFailed,
    );
    await expectError(
      await pro.client.patch(base, { title: "x".repeat(81) }),
      400,
      ERROR_CODES.validationFailed,
    );
    await expectError(
      await pro.client.put(`${base}/current`, { message_id: crypto.randomUUID() }),
      404,
      ERROR_CODES.notFound,
    );
    await expectError(
      await pro.client.post("/api/cochat/chat", {
        session_id: "cochat-bad-1",
        parent_id: crypto.randomUUID(),
        messages: [{ role: "user", content: "Q" }],
      }),
      404,
      ERROR_CODES.notFound,
    );
    expect(openai.requests).toHaveLength(2); // the two turns only
    expect(texts(await read(pro.client, "cochat-bad-1"))).toEqual(["Q1", "A1", "Q2", "A2"]);
  });

  it("answers another user the one 404 for every action, changing nothing", async () => {
    const start = await twoTurns("cochat-private-1");
    const [q1, a1] = start.messages;
    const base = "/api/cochat/conversations/cochat-private-1";
    const responses = [
      await other.client.get(base),
      await other.client.post(`${base}/messages/${a1?.id}/regenerate`, {}),
      await other.client.post(`${base}/messages/${q1?.id}/edit`, { content: "mine now" }),
      await other.client.put(`${base}/current`, { message_id: a1?.id }),
      await other.client.patch(base, { title: "Taken" }),
      await other.client.delete(base),
      // Their own conversation of the same id cannot reach the first user's messages either.
      await other.client.post("/api/cochat/chat", {
        session_id: "cochat-private-1",
        parent_id: a1?.id,
        messages: [{ role: "user", content: "Q" }],
      }),
    ];
    for (const response of responses) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe(ERROR_CODES.notFound);
    }
    expect(openai.requests).toHaveLength(2); // the two turns only
    const mine = await read(pro.client, "cochat-private-1");
    expect(texts(mine)).toEqual(["Q1", "A1", "Q2", "A2"]);
    expect(mine.conversation.title).toBe("Q1");
  });

  it("locks regenerate and edit for tiers without CoChat", async () => {
    const free = await userWithTier("free");
    const response = await free.client.post(
      `/api/cochat/conversations/cochat-x/messages/${crypto.randomUUID()}/regenerate`,
      {},
    );
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe(ERROR_CODES.cochatLocked);
  });
});
