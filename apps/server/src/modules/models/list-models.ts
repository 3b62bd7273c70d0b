import {
  SIMULATED_BADGE,
  type TAgentRole,
  type TAgentRoleInfo,
  type TModel,
  type TProviderId,
} from "@cohort/contracts";
import type { CatalogueModel, CatalogueRole } from "./catalogue-schema";
import type { ModelGateway } from "./gateway";
import type { UserProviderKeys } from "./providers";

/**
 * A catalogue model as the API shows it, with what answers it now for the caller: their own
 * key, a hosted key, the local server or the simulator (decision 029).
 */
export function describeModel(
  gateway: ModelGateway,
  model: CatalogueModel,
  userKeys?: UserProviderKeys,
): TModel {
  const resolved = gateway.resolve(model.id, userKeys);
  const simulated = resolved?.simulated ?? true;
  const providers = [...new Set(model.backends.map((b) => b.provider))] as TProviderId[];
  return {
    id: model.id,
    name: model.name,
    kind: model.kind,
    family: model.family,
    purpose: model.purpose,
    description: model.description,
    provider: resolved?.provider ?? (providers[0] as TProviderId),
    providers,
    simulated,
    badge: simulated ? SIMULATED_BADGE : null,
    source: resolved?.source ?? "simulator",
    capabilities: [...model.capabilities],
    context_window: model.contextWindow,
    max_output_tokens: model.maxOutputTokens,
    default_temperature: model.temperature,
    price: { ...model.price },
    roles: gateway.catalogue.rolesFor(model.id),
  };
}

export interface ModelFilter {
  role?: TAgentRole;
  /** false keeps only the native Co* models. */
  includeExternal?: boolean;
  userKeys?: UserProviderKeys;
}

export function listModels(gateway: ModelGateway, filter: ModelFilter = {}): TModel[] {
  const role = filter.role ? gateway.catalogue.getRole(filter.role) : undefined;
  return gateway.catalogue.models
    .filter((m) => filter.includeExternal !== false || m.kind === "native")
    .filter((m) => !role || role.suitableModels.includes(m.id))
    .map((m) => describeModel(gateway, m, filter.userKeys));
}

export function describeRole(role: CatalogueRole): TAgentRoleInfo {
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    default_model: role.defaultModel,
    suitable_models: [...role.suitableModels],
  };
}

export function listAgentRoles(gateway: ModelGateway): TAgentRoleInfo[] {
  return gateway.catalogue.roles.map(describeRole);
}

/** CoChat's own list, its default first (the product overview). */
export function listCochatModels(gateway: ModelGateway, userKeys?: UserProviderKeys): TModel[] {
  return gateway.catalogue.cochatModels.flatMap((id) => {
    const model = gateway.catalogue.getModel(id);
    return model ? [describeModel(gateway, model, userKeys)] : [];
  });
}
