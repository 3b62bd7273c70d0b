import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  NATIVE_MODELS,
  SIMULATED_BADGE,
  type TModel,
  ZAgentRolesResponse,
  ZAvailableModelsResponse,
  ZCochatModelsResponse,
  ZModelResponse,
  ZModelsByRoleResponse,
  ZModelsHealthResponse,
  ZModelsResponse,
  ZRunPlan,
} from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configErrorOf, createTestApp, type TestApp } from "./support/app";

/** The catalogue routes, with no keys (everything simulated) and with some keys. */

let keyless: TestApp;

beforeAll(async () => {
  keyless = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "0" });
});
afterAll(() => keyless?.close());

async function get(t: TestApp, url: string) {
  return t.app.inject({ method: "GET", url });
}

describe("catalogue routes without any provider key", () => {
  it("lists every model as simulated, labelled so, native Co* models first", async () => {
    const response = await get(keyless, "/api/ai/models");
    expect(response.statusCode).toBe(200);
    const { models } = ZModelsResponse.parse(response.json());
    expect(models.slice(0, NATIVE_MODELS.length).map((m) => m.id)).toEqual(
      NATIVE_MODELS.map((m) => m.id),
    );
    expect(models.map((m) => m.id)).toEqual(
      expect.arrayContaining([
        "gpt-4.1",
        "gpt-4o",
        "claude-sonnet-4",
        "gemini-2.5-pro",
        "gemini-2.5-flash",
      ]),
    );
    for (const model of models) {
      expect(model).toMatchObject({ simulated: true, badge: SIMULATED_BADGE });
      // Text models are priced per token, image models (CoVision) per image (decision 064).
      expect(model.price.output_per_1k + (model.price.per_image ?? 0)).toBeGreaterThan(0);
    }
    const coreason = models.find((m) => m.id === "coreason") as TModel;
    expect(coreason).toMatchObject({
      name: "CoReason",
      purpose: "Logical reasoning",
      provider: "openai",
      providers: ["openai", "anthropic", "google"],
    });
    expect(coreason.roles).toEqual(expect.arrayContaining(["strategist", "critic"]));
    expect(JSON.stringify(models)).not.toMatch(/systemPrompt|You are CoReason/);
  });

  it("lists the four agent roles with existing default and suitable models", async () => {
    const { roles } = ZAgentRolesResponse.parse((await get(keyless, "/api/ai/agent-roles")).json());
    expect(roles.map((r) => r.name)).toEqual(["Strategist", "Coder", "Designer", "Critic"]);
    const { models } = ZModelsResponse.parse((await get(keyless, "/api/ai/models")).json());
    const ids = new Set(models.map((m) => m.id));
    for (const role of roles) {
      expect(ids.has(role.default_model)).toBe(true);
      expect(role.suitable_models).toContain(role.default_model);
      for (const id of role.suitable_models) expect(ids.has(id)).toBe(true);
    }
  });

  it("filters available models by role and by native-only", async () => {
    const all = ZAvailableModelsResponse.parse(
      (await get(keyless, "/api/models/available?role=coder&includeExternal=true")).json(),
    );
    expect(all.default_model).toBe("cologic");
    expect(all.models.map((m) => m.id)).toContain("gpt-4.1");
    expect(all.models.map((m) => m.id)).not.toContain("cochat");
    const native = ZAvailableModelsResponse.parse(
      (await get(keyless, "/api/models/available?role=coder&includeExternal=false")).json(),
    );
    expect(native.models.length).toBeGreaterThan(0);
    expect(native.models.every((m) => m.kind === "native" && m.roles.includes("coder"))).toBe(true);
    const noRole = ZAvailableModelsResponse.parse(
      (await get(keyless, "/api/models/available")).json(),
    );
    expect(noRole.default_model).toBeNull();
    expect(noRole.models.map((m) => m.id)).toContain("cochat");
  });

  it("answers 400 for an unknown role or a malformed flag", async () => {
    const unknown = await get(keyless, "/api/models/available?role=wizard");
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe("unknown_role");
    const badFlag = await get(keyless, "/api/models/available?includeExternal=maybe");
    expect(badFlag.statusCode).toBe(400);
    expect(badFlag.json().error.code).toBe("validation_failed");
    const byRole = await get(keyless, "/api/models/by-role/wizard");
    expect(byRole.statusCode).toBe(400);
    expect(byRole.json().error).toMatchObject({ code: "unknown_role" });
    expect(byRole.json().error.message).toContain("strategist, coder, designer, critic");
  });

  it("describes one role with its models", async () => {
    const response = await get(keyless, "/api/models/by-role/Critic");
    expect(response.statusCode).toBe(200);
    const body = ZModelsByRoleResponse.parse(response.json());
    expect(body.role.id).toBe("critic");
    expect(body.default_model).toBe("coreason");
    expect(body.models.every((m) => m.roles.includes("critic"))).toBe(true);
  });

  it("shows one model, including ids with dots, and 404s an unknown one", async () => {
    const model = ZModelResponse.parse((await get(keyless, "/api/models/gpt-4.1")).json()).model;
    expect(model).toMatchObject({ id: "gpt-4.1", family: "gpt", simulated: true });
    const missing = await get(keyless, "/api/models/gpt-99");
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe("model_not_found");
  });

  it("gives CoChat its own list with CoChat first", async () => {
    const { data } = ZCochatModelsResponse.parse((await get(keyless, "/api/cochat/models")).json());
    expect(data[0]?.id).toBe("cochat");
    expect(data.every((m) => m.badge === SIMULATED_BADGE)).toBe(true);
  });

  it("reports every provider as simulated in health", async () => {
    const response = await get(keyless, "/api/models/health");
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    const health = ZModelsHealthResponse.parse(response.json());
    expect(health).toMatchObject({ status: "ok", all_simulated: true });
    expect(health.providers.map((p) => p.provider)).toEqual([
      "openai",
      "anthropic",
      "google",
      "openai-compatible",
      "simulator",
    ]);
    for (const p of health.providers.filter((p) => p.provider !== "simulator")) {
      expect(p).toMatchObject({ configured: false, mode: "simulated", reachable: null });
    }
  });

  it("answers through the simulator in the role's shape, priced and recorded in health", async () => {
    const result = await keyless.app.models.streamModel({
      modelId: "coreason",
      role: "critic",
      messages: [{ role: "user", content: "Review this draft landing page for a bakery." }],
    });
    expect(result).toMatchObject({
      simulated: true,
      provider: "simulator",
      keySource: "simulator",
    });
    expect(result.text).toMatch(/^Score: \d+\/10$/m);
    expect(result.text).toMatch(/^Verdict: (approve|revise)$/m);
    expect(result.credits).toBeGreaterThan(0);
    const health = ZModelsHealthResponse.parse((await get(keyless, "/api/models/health")).json());
    const simulator = health.providers.find((p) => p.provider === "simulator");
    expect(simulator).toMatchObject({ reachable: true });
    expect(simulator?.samples).toBeGreaterThan(0);
  });

  it("plans through the simulator with a valid ZRunPlan, honouring chosen roles", async () => {
    const free = await keyless.app.models.generatePlan({
      modelId: "coreason",
      request: "Build a signup page with an email form and an API endpoint",
    });
    expect(ZRunPlan.safeParse(free.plan).success).toBe(true);
    expect(free.plan.steps.map((s) => s.role)).toEqual([
      "strategist",
      "coder",
      "designer",
      "critic",
    ]);
    const chosen = await keyless.app.models.generatePlan({
      modelId: "coreason",
      request: "Build a signup page",
      allowedRoles: ["designer", "critic"],
    });
    expect(chosen.plan.steps.map((s) => s.role)).toEqual(["designer", "critic"]);
  });

  it("draws an image for CoVision", async () => {
    const result = await keyless.app.models.streamModel({
      modelId: "covision",
      messages: [{ role: "user", content: "A lighthouse at dusk" }],
    });
    const url = /!\[[^\]]*\]\((data:image\/svg\+xml;base64,[^)]+)\)/.exec(result.text)?.[1];
    expect(url).toBeDefined();
    const svg = Buffer.from((url as string).split(",")[1] as string, "base64").toString("utf8");
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 640 400"/);
    expect(svg).toContain("<title>A lighthouse at dusk</title>");
    expect(svg).not.toMatch(/<script|href=/i);
  });
});

describe("catalogue routes with some keys", () => {
  let keyed: TestApp;
  beforeAll(async () => {
    keyed = await createTestApp({
      OPENAI_API_KEY: "sk-test",
      OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:9/v1",
      OPENAI_COMPATIBLE_MODELS: "llama3.1, Qwen/Qwen2.5-7B",
    });
  });
  afterAll(() => keyed?.close());

  it("marks only models without a configured provider as simulated", async () => {
    const { models } = ZModelsResponse.parse((await get(keyed, "/api/ai/models")).json());
    const byId = new Map(models.map((m) => [m.id, m]));
    expect(byId.get("gpt-4.1")).toMatchObject({
      simulated: false,
      badge: null,
      provider: "openai",
    });
    expect(byId.get("claude-sonnet-4")).toMatchObject({ simulated: true, badge: SIMULATED_BADGE });
    // CoDepth prefers Anthropic, but with only OpenAI configured it is served by OpenAI.
    expect(byId.get("codepth")).toMatchObject({ simulated: false, provider: "openai" });
    expect(byId.get("local:llama3.1")).toMatchObject({
      kind: "local",
      provider: "openai-compatible",
      simulated: false,
      price: { input_per_1k: 0, output_per_1k: 0 },
    });
    expect(byId.has("local:qwen-qwen2.5-7b")).toBe(true);
  });

  it("serves model ids with a colon and reports configured providers", async () => {
    expect((await get(keyed, "/api/models/local:llama3.1")).statusCode).toBe(200);
    const health = ZModelsHealthResponse.parse((await get(keyed, "/api/models/health")).json());
    expect(health.all_simulated).toBe(false);
    const openai = health.providers.find((p) => p.provider === "openai");
    expect(openai).toMatchObject({ configured: true, mode: "real", reachable: null });
  });
});

describe("MODELS_CONFIG_FILE", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "cohort-models-"));
  const file = (name: string, content: unknown) => {
    const full = path.join(dir, name);
    writeFileSync(full, typeof content === "string" ? content : JSON.stringify(content));
    return full;
  };

  it("changes prices, adds and removes models, and sets CoChat's list", async () => {
    const t = await createTestApp({
      MODELS_CONFIG_FILE: file("ok.json", {
        models: [
          { id: "coreason", price: { output_per_1k: 2 } },
          {
            id: "gpt-5",
            name: "GPT-5",
            kind: "external",
            family: "gpt",
            purpose: "Frontier reasoning",
            description: "OpenAI's GPT-5.",
            backends: [{ provider: "openai", model: "gpt-5" }],
            systemPrompt: "",
            temperature: 1,
            maxOutputTokens: 8192,
            contextWindow: 400000,
            price: { input_per_1k: 0.125, output_per_1k: 1 },
            capabilities: ["text", "structured"],
          },
        ],
        remove: ["gpt-4o"],
        roles: [{ id: "coder", defaultModel: "gpt-5" }],
        cochatModels: ["coquick", "cochat"],
      }),
    });
    try {
      const { models } = ZModelsResponse.parse((await get(t, "/api/ai/models")).json());
      const byId = new Map(models.map((m) => [m.id, m]));
      expect(byId.get("coreason")?.price).toEqual({ input_per_1k: 0.3, output_per_1k: 2 });
      expect(byId.get("gpt-5")).toMatchObject({ name: "GPT-5", roles: ["coder"] });
      expect(byId.has("gpt-4o")).toBe(false);
      const coder = ZModelsByRoleResponse.parse((await get(t, "/api/models/by-role/coder")).json());
      expect(coder.default_model).toBe("gpt-5");
      const { data } = ZCochatModelsResponse.parse((await get(t, "/api/cochat/models")).json());
      expect(data.map((m) => m.id)).toEqual(["coquick", "cochat"]);
    } finally {
      await t.close();
    }
  });

  it("stops start-up, naming the variable, when the file is bad", () => {
    expect(configErrorOf({ MODELS_CONFIG_FILE: path.join(dir, "missing.json") })).toMatch(
      /MODELS_CONFIG_FILE: cannot read/,
    );
    expect(configErrorOf({ MODELS_CONFIG_FILE: file("syntax.json", "{ nope") })).toMatch(
      /MODELS_CONFIG_FILE: cannot read .* as JSON/,
    );
    expect(
      configErrorOf({
        MODELS_CONFIG_FILE: file("price.json", {
          models: [{ id: "coreason", price: { input_per_1k: -1 } }],
        }),
      }),
    ).toMatch(/MODELS_CONFIG_FILE: .*: models\.0\.price\.input_per_1k/);
    expect(
      configErrorOf({
        MODELS_CONFIG_FILE: file("incomplete.json", { models: [{ id: "new-model", name: "New" }] }),
      }),
    ).toMatch(/MODELS_CONFIG_FILE: models\.0 \(new-model\)/);
    expect(
      configErrorOf({ MODELS_CONFIG_FILE: file("native.json", { remove: ["cochat"] }) }),
    ).toMatch(/cochat is a native model/);
    expect(
      configErrorOf({ MODELS_CONFIG_FILE: file("list.json", { cochatModels: ["nope"] }) }),
    ).toMatch(/cochatModels: unknown model nope/);
    expect(configErrorOf({ MODELS_CONFIG_FILE: file("extra.json", { colour: "blue" }) })).toMatch(
      /MODELS_CONFIG_FILE/,
    );
  });

  it("requires model names for an OpenAI-compatible server", () => {
    expect(configErrorOf({ OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:11434/v1" })).toMatch(
      /OPENAI_COMPATIBLE_MODELS/,
    );
    expect(configErrorOf({ MODEL_CALL_TIMEOUT_MS: "soon" })).toMatch(/MODEL_CALL_TIMEOUT_MS/);
  });
});
