import { describe, expect, it } from "vitest";
import { buildCatalogue } from "./catalogue";
import { applyModelOverrides, type ModelOverride } from "./model-overrides";

describe("applyModelOverrides", () => {
  const base = buildCatalogue();
  const external = base.models.find((model) => model.kind === "external");
  if (!external) throw new Error("the built-in catalogue has external models");

  it("changes nothing without overrides", () => {
    const catalogue = applyModelOverrides(base, () => undefined);
    expect(catalogue.models).toEqual(base.models);
    expect(catalogue.getModel(external.id)).toEqual(external);
  });

  it("hides a switched-off model everywhere and reads the overrides on every lookup", () => {
    const overrides = new Map<string, ModelOverride>();
    const catalogue = applyModelOverrides(base, (id) => overrides.get(id));
    overrides.set(external.id, { modelId: external.id, enabled: false, price: null });
    expect(catalogue.getModel(external.id)).toBeUndefined();
    expect(catalogue.models.map((model) => model.id)).not.toContain(external.id);
    for (const role of catalogue.roles) expect(role.suitableModels).not.toContain(external.id);
    expect(catalogue.rolesFor(external.id)).toEqual([]);
    overrides.delete(external.id);
    expect(catalogue.getModel(external.id)).toEqual(external);
  });

  it("prices a model at its override", () => {
    const price = { input_per_1k: 9, output_per_1k: 19 };
    const catalogue = applyModelOverrides(base, (id) =>
      id === external.id ? { modelId: id, enabled: true, price } : undefined,
    );
    expect(catalogue.getModel(external.id)?.price).toEqual(price);
    expect(catalogue.models.find((model) => model.id === external.id)?.price).toEqual(price);
    expect(base.getModel(external.id)?.price).not.toEqual(price);
  });
});
