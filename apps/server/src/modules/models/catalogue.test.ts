import { AGENT_ROLES, makesImages, NATIVE_MODELS } from "@cohort/contracts";
import { describe, expect, it } from "vitest";
import { buildCatalogue, CatalogueError } from "./catalogue";
import { ZCatalogueModel, ZModelsConfigFile } from "./catalogue-schema";
import { DEFAULT_MODELS } from "./default-catalogue";

describe("built-in catalogue", () => {
  const catalogue = buildCatalogue();

  it("has every native model of the spec, valid and priced", () => {
    for (const native of NATIVE_MODELS) {
      const model = catalogue.getModel(native.id);
      expect(model).toMatchObject({ name: native.name, purpose: native.purpose, kind: "native" });
      // Anthropic makes no images: CoVision (decision 064) is backed by OpenAI and Google.
      const providers =
        model && makesImages(model) ? ["openai", "google"] : ["openai", "anthropic", "google"];
      expect(model?.backends.map((b) => b.provider)).toEqual(expect.arrayContaining(providers));
    }
    expect(catalogue.getModel("covision")).toMatchObject({
      capabilities: ["image"],
      price: { per_image: 4.2 },
      backends: [
        { provider: "openai", model: "gpt-image-1" },
        { provider: "google", model: "imagen-4.0-generate-001" },
      ],
    });
    for (const model of DEFAULT_MODELS) expect(ZCatalogueModel.safeParse(model).success).toBe(true);
  });

  it("prices a native model at least as high as any model behind it", () => {
    for (const native of catalogue.models.filter((m) => m.kind === "native")) {
      for (const backend of native.backends) {
        const external = catalogue.models.find(
          (m) => m.kind === "external" && m.backends[0]?.model === backend.model,
        );
        if (!external) continue;
        expect(native.price.input_per_1k).toBeGreaterThanOrEqual(external.price.input_per_1k);
        expect(native.price.output_per_1k).toBeGreaterThanOrEqual(external.price.output_per_1k);
      }
    }
  });

  it("gives every role a default model that suits it, and derives each model's roles", () => {
    expect(catalogue.roles.map((r) => r.id)).toEqual([...AGENT_ROLES]);
    for (const role of catalogue.roles) expect(role.suitableModels).toContain(role.defaultModel);
    expect(catalogue.rolesFor("covision")).toEqual(["designer"]);
    expect(catalogue.rolesFor("cochat")).toEqual(["designer"]);
    expect(catalogue.cochatModels[0]).toBe("cochat");
  });
});

describe("catalogue changes", () => {
  const file = (raw: unknown) => ZModelsConfigFile.parse(raw);

  it("adds local models to every role and to CoChat", () => {
    const catalogue = buildCatalogue({ localModels: ["llama3.1"] });
    expect(catalogue.getModel("local:llama3.1")?.backends).toEqual([
      { provider: "openai-compatible", model: "llama3.1" },
    ]);
    expect(catalogue.rolesFor("local:llama3.1")).toEqual([...AGENT_ROLES]);
    expect(catalogue.cochatModels).toContain("local:llama3.1");
  });

  it("collects every problem of a bad file in one error", () => {
    let caught: unknown;
    try {
      buildCatalogue({
        file: file({
          remove: ["coreason", "nope"],
          roles: [{ id: "coder", suitableModels: ["ghost"] }],
        }),
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CatalogueError);
    expect((caught as CatalogueError).issues).toEqual([
      "remove: coreason is a native model and cannot be removed",
      "remove: unknown model nope",
      "roles.coder: unknown model ghost",
    ]);
  });

  it("asks for a new default when a role's default model is removed", () => {
    expect(() =>
      buildCatalogue({
        file: file({ remove: ["gpt-4.1"], roles: [{ id: "coder", defaultModel: "gpt-4.1" }] }),
      }),
    ).toThrow(/default model gpt-4.1 was removed/);
  });
});

describe("embedding models", () => {
  const file = (raw: unknown) => ZModelsConfigFile.parse(raw);

  it("keeps them in a list of their own, priced from OpenAI's list prices", () => {
    const catalogue = buildCatalogue({ localEmbeddingModels: ["nomic-embed-text"] });
    expect(catalogue.embeddingModels.map((m) => m.id)).toEqual([
      "text-embedding-3-small",
      "text-embedding-3-large",
      "local:nomic-embed-text",
    ]);
    // $0.02 and $0.13 per million tokens: 0.002 and 0.013 cents (credits) per 1,000.
    expect(catalogue.getEmbeddingModel("text-embedding-3-small")?.price).toEqual({
      input_per_1k: 0.002,
    });
    expect(catalogue.getEmbeddingModel("text-embedding-3-large")?.price).toEqual({
      input_per_1k: 0.013,
    });
    expect(catalogue.getEmbeddingModel("local:nomic-embed-text")).toMatchObject({
      provider: "openai-compatible",
      model: "nomic-embed-text",
      price: { input_per_1k: 0 },
    });
    for (const model of catalogue.embeddingModels) {
      expect(catalogue.getModel(model.id)).toBeUndefined();
    }
    expect(catalogue.cochatModels).not.toContain("local:nomic-embed-text");
  });

  it("takes changes and additions from the file, and names a bad entry", () => {
    const catalogue = buildCatalogue({
      file: file({
        embeddingModels: [
          { id: "text-embedding-3-small", price: { input_per_1k: 0.01 } },
          {
            id: "voyage-3",
            name: "Voyage 3",
            provider: "openai-compatible",
            model: "voyage-3",
            dimensions: 1024,
            price: { input_per_1k: 0.006 },
          },
        ],
      }),
    });
    expect(catalogue.getEmbeddingModel("text-embedding-3-small")).toMatchObject({
      dimensions: 1536,
      price: { input_per_1k: 0.01 },
    });
    expect(catalogue.getEmbeddingModel("voyage-3")?.dimensions).toBe(1024);
    expect(() =>
      buildCatalogue({ file: file({ embeddingModels: [{ id: "half-an-entry", name: "Half" }] }) }),
    ).toThrow(/embeddingModels\.0 \(half-an-entry\): provider/);
  });
});

describe("local image models (decision 064)", () => {
  it("become local:<name> image models, free, suited to the Designer only", () => {
    const catalogue = buildCatalogue({ localModels: ["llama3.1"], localImageModels: ["sdxl"] });
    expect(catalogue.getModel("local:sdxl")).toMatchObject({
      kind: "local",
      capabilities: ["image"],
      backends: [{ provider: "openai-compatible", model: "sdxl" }],
      price: { input_per_1k: 0, output_per_1k: 0, per_image: 0 },
    });
    expect(catalogue.rolesFor("local:sdxl")).toEqual(["designer"]);
    expect(catalogue.rolesFor("local:llama3.1")).toEqual([...AGENT_ROLES]);
  });
});
