import type { TAdminModel, TAdminModelsResponse } from "@cohort/contracts";
import type { Catalogue } from "../models/catalogue";
import { checkModelHealth } from "../models/check-model-health";
import type { ModelGateway } from "../models/gateway";
import type { ModelOverrides } from "../models/model-overrides";

/** Models a run or CoChat falls back to: switching one off would break them. */
export function requiredModels(catalogue: Catalogue): Set<string> {
  const required = new Set(catalogue.roles.map((role) => role.defaultModel));
  const cochatDefault = catalogue.cochatModels[0];
  if (cochatDefault) required.add(cochatDefault);
  return required;
}

/** Every catalogue model, switched off ones included, with its override and the health of its providers. */
export function listAdminModels(
  gateway: ModelGateway,
  overrides: ModelOverrides,
): TAdminModelsResponse {
  const required = requiredModels(overrides.base);
  const models: TAdminModel[] = overrides.base.models.map((model) => {
    const override = overrides.get(model.id);
    return {
      id: model.id,
      name: model.name,
      kind: model.kind,
      providers: [...new Set(model.backends.map((backend) => backend.provider))],
      enabled: override?.enabled ?? true,
      price: { ...(override?.price ?? model.price) },
      catalogue_price: { ...model.price },
      price_overridden: Boolean(override?.price),
      required: required.has(model.id),
    };
  });
  return { models, providers: checkModelHealth(gateway).providers };
}
