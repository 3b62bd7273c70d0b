import {
  ERROR_CODES,
  TEMPLATE_ERROR_CODES,
  TEMPLATE_MESSAGES,
  TEMPLATE_ROUTES,
  type TSession,
  type TSubscriptionTier,
  type TTemplate,
  type TTemplateSetup,
  WORKSPACE_ERROR_CODES,
} from "@cohort/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminClient, type SignedUp, signUp } from "./support/accounts";
import type { TestApp } from "./support/app";
import type { TestClient } from "./support/client";
import { uploadProcessed } from "./support/documents";
import type { FakeProviderServer } from "./support/fake-provider/fake-provider-server";
import { startHostedOpenAiApp } from "./support/hosted-openai";
import { createSession, runToEnd } from "./support/runs";
import { setCredits } from "./support/runs-credits";
import { createTeam, type Team } from "./support/workspaces";

/**
 * Saved setups (decision 042) over HTTP: the Pro+ gate, roles in a team workspace, shared and
 * private templates, saving a session's setup with its documents, starting a session from a
 * template, and a role's instructions reaching that agent's prompt at the provider.
 */

const ADMIN = { ADMIN_EMAIL: "admin@templates.test", ADMIN_PASSWORD: "templates-admin-passphrase" };

let fake: FakeProviderServer;
let t: TestApp;

beforeAll(async () => {
  ({ t, fake } = await startHostedOpenAiApp(ADMIN));
  await t.app.ready();
});
afterAll(() => t?.close());
beforeEach(() => fake.reset({ text: "A draft that does the job." }));

async function userWithTier(tier: TSubscriptionTier): Promise<SignedUp> {
  const signed = await signUp(t.app);
  if (tier !== "free") {
    const admin = await adminClient(t.app, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
    const granted = await admin.put(`/api/admin/users/${signed.user.id}/tier`, { tier });
    expect(granted.statusCode).toBe(200);
  }
  return signed;
}

const SETUP: TTemplateSetup = {
  coordinator_model: "coreason",
  manual_agent_selection: true,
  agent_preferences: {
    strategist: { enabled: true, model: null, instructions: "" },
    coder: { enabled: true, model: null, instructions: "Write every example in Rust." },
    critic: { enabled: false, model: null, instructions: "" },
  },
  budget_credits: 12.5,
  tools: null,
  document_ids: [],
};

/** Changes a template as `client`. */
function patch(client: TestClient, templateId: string, body: unknown) {
  return client.request("PATCH", TEMPLATE_ROUTES.one(templateId), body);
}

async function saveTemplate(client: TestClient, body: Record<string, unknown>) {
  const response = await client.post(TEMPLATE_ROUTES.list, {
    name: "Rust team",
    setup: SETUP,
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().template as TTemplate;
}

async function listNames(client: TestClient, workspaceId?: string): Promise<string[]> {
  const query = workspaceId ? `?workspace_id=${workspaceId}` : "";
  const response = await client.get(`${TEMPLATE_ROUTES.list}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().templates as TTemplate[]).map((template) => template.name);
}

describe("the Pro+ gate", () => {
  it("refuses free and Pro users saving, changing and starting, with where to upgrade", async () => {
    const owner = await userWithTier("pro+");
    const template = await saveTemplate(owner.client, {});
    for (const tier of ["free", "pro"] as const) {
      const user = await userWithTier(tier);
      const attempts = [
        await user.client.post(TEMPLATE_ROUTES.list, { name: "Mine", setup: SETUP }),
        await patch(user.client, template.id, { name: "Renamed" }),
        await user.client.post(TEMPLATE_ROUTES.sessions(template.id), { title: "Try" }),
      ];
      for (const response of attempts) {
        expect(response.statusCode).toBe(403);
        expect(response.json().error).toEqual({
          code: TEMPLATE_ERROR_CODES.locked,
          message: TEMPLATE_MESSAGES.locked,
          details: { tier, upgrade_url: "/billing" },
        });
      }
      // Reading stays open: their own (empty) list.
      expect(await listNames(user.client)).toEqual([]);
    }
  });

  it("lets Enterprise save a template", async () => {
    const user = await userWithTier("enterprise");
    const template = await saveTemplate(user.client, { name: "Enterprise setup" });
    expect(template).toMatchObject({
      workspace_id: user.user.id,
      name: "Enterprise setup",
      description: "",
      shared: false,
      is_mine: true,
      can_edit: true,
      created_by_name: "Ada Lovelace",
      setup: SETUP,
    });
  });
});

describe("templates in a team workspace", () => {
  let owner: SignedUp;
  let member: SignedUp;
  let viewer: SignedUp;
  let outsider: SignedUp;
  let team: Team;

  beforeAll(async () => {
    [owner, member, viewer, outsider] = await Promise.all([
      userWithTier("pro+"),
      userWithTier("pro+"),
      userWithTier("pro+"),
      userWithTier("pro+"),
    ]);
    team = await createTeam(t.app, owner.user.id, [
      { userId: member.user.id, role: "member" },
      { userId: viewer.user.id, role: "viewer" },
    ]);
  });

  it("lets a member save one, refuses a viewer (403) and an outsider (404)", async () => {
    const saved = await saveTemplate(member.client, {
      workspace_id: team.id,
      name: "Member's shared setup",
      shared: true,
    });
    expect(saved.workspace_id).toBe(team.id);

    const byViewer = await viewer.client.post(TEMPLATE_ROUTES.list, {
      workspace_id: team.id,
      name: "Viewer's",
      setup: SETUP,
    });
    expect(byViewer.statusCode).toBe(403);
    expect(byViewer.json().error.code).toBe(WORKSPACE_ERROR_CODES.roleTooLow);
    const viewerStarts = await viewer.client.post(TEMPLATE_ROUTES.sessions(saved.id), {
      title: "Viewer's try",
    });
    expect(viewerStarts.statusCode).toBe(403);
    expect(viewerStarts.json().error.code).toBe(WORKSPACE_ERROR_CODES.roleTooLow);
    // The viewer reads the shared template.
    expect(await listNames(viewer.client, team.id)).toContain("Member's shared setup");

    const byOutsider = await outsider.client.post(TEMPLATE_ROUTES.list, {
      workspace_id: team.id,
      name: "Outsider's",
      setup: SETUP,
    });
    expect(byOutsider.statusCode).toBe(404);
    for (const response of [
      await outsider.client.get(`${TEMPLATE_ROUTES.list}?workspace_id=${team.id}`),
      await outsider.client.get(TEMPLATE_ROUTES.one(saved.id)),
      await outsider.client.post(TEMPLATE_ROUTES.sessions(saved.id), { title: "Outsider's" }),
      await patch(outsider.client, saved.id, { name: "Taken" }),
      await outsider.client.delete(TEMPLATE_ROUTES.one(saved.id)),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe(ERROR_CODES.notFound);
    }
  });

  it("shows a private template to its creator only, and a shared one to the workspace", async () => {
    const template = await saveTemplate(member.client, {
      workspace_id: team.id,
      name: "Private draft",
    });
    expect(await listNames(member.client, team.id)).toContain("Private draft");
    expect(await listNames(owner.client, team.id)).not.toContain("Private draft");
    expect((await owner.client.get(TEMPLATE_ROUTES.one(template.id))).statusCode).toBe(404);
    expect((await viewer.client.get(TEMPLATE_ROUTES.one(template.id))).statusCode).toBe(404);

    const shared = await patch(member.client, template.id, {
      shared: true,
    });
    expect(shared.statusCode).toBe(200);
    expect(shared.json().template.shared).toBe(true);
    expect(await listNames(owner.client, team.id)).toContain("Private draft");
    const seen = (await viewer.client.get(TEMPLATE_ROUTES.one(template.id))).json()
      .template as TTemplate;
    expect(seen).toMatchObject({ is_mine: false, can_edit: false, shared: true });
  });

  it("lets the creator or an admin change it, not another member or a viewer", async () => {
    const template = await saveTemplate(owner.client, {
      workspace_id: team.id,
      name: "Owner's setup",
      shared: true,
    });
    const byMember = await patch(member.client, template.id, {
      name: "Hijacked",
    });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().error).toMatchObject({
      code: WORKSPACE_ERROR_CODES.roleTooLow,
      message: TEMPLATE_MESSAGES.notYours,
    });
    expect((await member.client.delete(TEMPLATE_ROUTES.one(template.id))).statusCode).toBe(403);
    const byViewer = await viewer.client.delete(TEMPLATE_ROUTES.one(template.id));
    expect(byViewer.statusCode).toBe(403);

    const memberTemplate = await saveTemplate(member.client, {
      workspace_id: team.id,
      name: "Member's setup",
      shared: true,
    });
    // The owner (an admin and more) renames a member's shared template and deletes it.
    const renamed = await patch(owner.client, memberTemplate.id, {
      name: "Member's setup, tidied",
      description: "The team's usual Rust crew",
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().template).toMatchObject({
      name: "Member's setup, tidied",
      description: "The team's usual Rust crew",
      is_mine: false,
      can_edit: true,
    });
    const deleted = await owner.client.delete(TEMPLATE_ROUTES.one(memberTemplate.id));
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ deleted: true });
    expect(await listNames(member.client, team.id)).not.toContain("Member's setup, tidied");
  });

  it("starts a session in the template's workspace with its setup", async () => {
    const template = await saveTemplate(owner.client, {
      workspace_id: team.id,
      name: "Team start",
      shared: true,
    });
    const started = await member.client.post(TEMPLATE_ROUTES.sessions(template.id), {
      title: "From the team template",
    });
    expect(started.statusCode, started.body).toBe(201);
    const session = started.json().session as TSession;
    expect(session).toMatchObject({
      workspace_id: team.id,
      title: "From the team template",
      coordinator_model: SETUP.coordinator_model,
      manual_agent_selection: true,
      agent_preferences: SETUP.agent_preferences,
      budget_credits: 12.5,
    });
    expect(started.json().document_ids).toEqual([]);
  });
});

describe("saving a session and starting from it", () => {
  it("copies the session's setup and documents, and leaves out documents deleted since", async () => {
    const user = await userWithTier("pro+");
    const [kept, removed] = [
      await uploadProcessed(user.client, "menu.txt", "The bakery menu: sourdough and rye."),
      await uploadProcessed(user.client, "prices.txt", "Sourdough costs four euros."),
    ];
    const session = await createSession(user.client, {
      title: "Bakery site",
      coordinator_model: SETUP.coordinator_model,
      manual_agent_selection: true,
      agent_preferences: SETUP.agent_preferences,
      budget_credits: 12.5,
    });
    const attached = await user.client.put(`/api/sessions/${session.id}/documents`, {
      document_ids: [kept.id, removed.id],
    });
    expect(attached.statusCode, attached.body).toBe(200);

    const template = await saveTemplate(user.client, {
      name: "Bakery crew",
      description: "Rust coder, no critic",
      setup: undefined,
      from_session_id: session.id,
    });
    expect(template.workspace_id).toBe(user.user.id);
    expect(template.setup).toEqual({
      ...SETUP,
      tools: { policy: "ask_risky", roles: {} },
      review_plan: false,
      document_ids: [kept.id, removed.id],
    });

    expect((await user.client.delete(`/api/documents/${removed.id}`)).statusCode).toBe(200);
    const started = await user.client.post(TEMPLATE_ROUTES.sessions(template.id), {
      title: "Bakery site, take two",
    });
    expect(started.statusCode, started.body).toBe(201);
    const fresh = started.json().session as TSession;
    expect(fresh.id).not.toBe(session.id);
    expect(fresh).toMatchObject({
      title: "Bakery site, take two",
      coordinator_model: SETUP.coordinator_model,
      manual_agent_selection: true,
      agent_preferences: SETUP.agent_preferences,
      budget_credits: 12.5,
    });
    expect(started.json().document_ids).toEqual([kept.id]);
    const documents = await user.client.get(`/api/sessions/${fresh.id}/documents`);
    expect(documents.json().documents.map((d: { id: string }) => d.id)).toEqual([kept.id]);
  });

  it('carries "Review the plan first": a session that has it saves a template that turns it on (decision 069)', async () => {
    const user = await userWithTier("pro+");
    const session = await createSession(user.client, { title: "Reviewed", review_plan: true });
    const template = await saveTemplate(user.client, {
      name: "Reviewed crew",
      setup: undefined,
      from_session_id: session.id,
    });
    expect(template.setup.review_plan).toBe(true);
    const started = await user.client.post(TEMPLATE_ROUTES.sessions(template.id), {
      title: "Reviewed, take two",
    });
    expect(started.statusCode, started.body).toBe(201);
    expect((started.json().session as TSession).review_plan).toBe(true);
    // A template saved without it starts sessions with it off.
    const plain = await saveTemplate(user.client, { name: "Plain", setup: SETUP });
    expect(plain.setup.review_plan).toBeUndefined();
    const off = await user.client.post(TEMPLATE_ROUTES.sessions(plain.id), { title: "Plain" });
    expect(off.statusCode, off.body).toBe(201);
    expect((off.json().session as TSession).review_plan).toBe(false);
  });

  it("refuses a session the caller cannot see (404) and one in another workspace than asked", async () => {
    const [user, other] = [await userWithTier("pro+"), await userWithTier("pro+")];
    const session = await createSession(other.client);
    const response = await user.client.post(TEMPLATE_ROUTES.list, {
      name: "Someone else's",
      from_session_id: session.id,
    });
    expect(response.statusCode).toBe(404);

    const team = await createTeam(t.app, user.user.id);
    const mine = await createSession(user.client);
    const mismatch = await user.client.post(TEMPLATE_ROUTES.list, {
      name: "Moved",
      workspace_id: team.id,
      from_session_id: mine.id,
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error).toEqual({
      code: TEMPLATE_ERROR_CODES.workspaceMismatch,
      message: TEMPLATE_MESSAGES.workspaceMismatch,
    });
  });
});

describe("a role's instructions", () => {
  it("reach that agent's prompt as the user's instructions, and no other role's", async () => {
    const user = await userWithTier("pro+");
    await setCredits(t.app, user.user.id, 500);
    const template = await saveTemplate(user.client, { name: "Rust coder" });
    const started = await user.client.post(TEMPLATE_ROUTES.sessions(template.id), {
      title: "Rust run",
    });
    expect(started.statusCode, started.body).toBe(201);
    const session = started.json().session as TSession;

    fake.next({
      json: {
        rationale: "A strategist plans, a coder writes.",
        steps: [
          { id: "s1", role: "strategist", task: "Plan the parser", dependsOn: [] },
          { id: "s2", role: "coder", task: "Write the parser", dependsOn: ["s1"] },
        ],
      },
    });
    const { events } = await runToEnd(user.client, session.id, "Build a CSV parser");
    expect(events.map((e) => e.type)).toContain("run.completed");

    const prompts = fake.requests.map((request) => JSON.stringify(request.body));
    const coder = prompts.find((text) => text.includes("Your task:\\nWrite the parser"));
    expect(coder).toContain(
      "Your task:\\nWrite the parser\\n\\nThe user's instructions for the Coder:\\nWrite every example in Rust.",
    );
    const strategist = prompts.find((text) => text.includes("Your task:\\nPlan the parser"));
    expect(strategist).toBeDefined();
    expect(strategist).not.toContain("Write every example in Rust.");
  });
});
