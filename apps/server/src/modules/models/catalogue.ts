import { readFileSync } from "node:fs";
import { AGENT_ROLES, makesImages, NATIVE_MODELS, type TAgentRole } from "@cohort/contracts";
import {
  type CatalogueEmbeddingModel,
  type CatalogueModel,
  type CatalogueRole,
  type ModelsConfigFile,
  ZCatalogueEmbeddingModel,
  ZCatalogueModel,
  ZModelsConfigFile,
} from "./catalogue-schema";
import {
  DEFAULT_COCHAT_MODELS,
  DEFAULT_EMBEDDING_MODELS,
  DEFAULT_MODELS,
  DEFAULT_ROLES,
  discoveredLocalModel,
  localEmbeddingModel,
  localImageModel,
  localModel,
} from "./default-catalogue";

/** The catalogue in force: built once at start-up from the defaults, the file and the env. */
export interface Catalogue {
  /** In display order: native, external, local. */
  readonly models: readonly CatalogueModel[];
  readonly roles: readonly CatalogueRole[];
  readonly cochatModels: readonly string[];
  /** Documents' embedding models: a list apart, never offered as chat models. */
  readonly embeddingModels: readonly CatalogueEmbeddingModel[];
  getModel(id: string): CatalogueModel | undefined;
  getRole(id: string): CatalogueRole | undefined;
  getEmbeddingModel(id: string): CatalogueEmbeddingModel | undefined;
  /** The roles a model suits (derived from the roles' lists, the one source of truth). */
  rolesFor(modelId: string): TAgentRole[];
}

export interface CatalogueSources {
  file?: ModelsConfigFile | undefined;
  /** Model names served by OPENAI_COMPATIBLE_BASE_URL; each becomes `local:<name>`. */
  localModels?: readonly string[];
  /** Image model names (OPENAI_COMPATIBLE_IMAGE_MODELS); each becomes `local:<name>`. */
  localImageModels?: readonly string[];
  /** Embedding model names (OPENAI_COMPATIBLE_EMBEDDING_MODELS); each becomes `local:<name>`. */
  localEmbeddingModels?: readonly string[];
  /** Models of the local servers found on loopback ports (decision 056), with their server. */
  discoveredModels?: readonly { model: string; server: string }[];
}

export class CatalogueError extends Error {
  constructor(readonly issues: string[]) {
    super(issues.join("; "));
    this.name = "CatalogueError";
  }
}

const NATIVE_IDS = new Set<string>(NATIVE_MODELS.map((m) => m.id));

function issuesOf(error: { issues: { path: PropertyKey[]; message: string }[] }, where: string) {
  return error.issues.map(
    (i) => `${where}: ${i.path.length ? `${i.path.map(String).join(".")}: ` : ""}${i.message}`,
  );
}

export function buildCatalogue(sources: CatalogueSources = {}): Catalogue {
  const issues: string[] = [];
  const models = new Map<string, CatalogueModel>(DEFAULT_MODELS.map((m) => [m.id, m]));
  for (const name of sources.localModels ?? []) {
    const model = localModel(name);
    models.set(model.id, model);
  }
  for (const name of sources.localImageModels ?? []) {
    const model = localImageModel(name);
    models.set(model.id, model);
  }
  for (const found of sources.discoveredModels ?? []) {
    const model = discoveredLocalModel(found.model, found.server);
    // Two servers with one model name: the first port's answers (local-model-servers.ts).
    if (!models.has(model.id)) models.set(model.id, model);
  }

  const file = sources.file;
  const removed = new Set<string>();
  for (const id of file?.remove ?? []) {
    if (NATIVE_IDS.has(id)) issues.push(`remove: ${id} is a native model and cannot be removed`);
    else if (!models.delete(id)) issues.push(`remove: unknown model ${id}`);
    else removed.add(id);
  }
  for (const [index, entry] of (file?.models ?? []).entries()) {
    const base = models.get(entry.id);
    const merged = base
      ? { ...base, ...entry, price: { ...base.price, ...entry.price } }
      : { ...entry };
    const parsed = ZCatalogueModel.safeParse(merged);
    if (parsed.success) models.set(parsed.data.id, parsed.data);
    else issues.push(...issuesOf(parsed.error, `models.${index} (${entry.id})`));
  }

  const roles = DEFAULT_ROLES.map((role) => {
    const change = file?.roles.find((r) => r.id === role.id);
    // Removing a model takes it out of the built-in lists; the file's own lists must be exact.
    const merged: CatalogueRole = {
      ...role,
      suitableModels: role.suitableModels.filter((id) => !removed.has(id)),
      ...change,
    };
    if (removed.has(merged.defaultModel)) {
      issues.push(
        `roles.${role.id}: its default model ${merged.defaultModel} was removed; set a new defaultModel`,
      );
    }
    // Every local model suits every role: the operator chose to run it. A local image model
    // suits the Designer only, as CoVision does (decision 064).
    const local = [...models.values()]
      .filter((m) => m.kind === "local" && (!makesImages(m) || role.id === "designer"))
      .map((m) => m.id);
    const suitable = [...new Set([merged.defaultModel, ...merged.suitableModels, ...local])];
    for (const id of suitable) {
      if (!models.has(id) && !removed.has(id)) issues.push(`roles.${role.id}: unknown model ${id}`);
    }
    return { ...merged, suitableModels: suitable.filter((id) => models.has(id)) };
  });

  const cochatModels = [
    ...(file?.cochatModels ?? DEFAULT_COCHAT_MODELS.filter((id) => !removed.has(id))),
  ];
  if (!file?.cochatModels) {
    cochatModels.push(...[...models.values()].filter((m) => m.kind === "local").map((m) => m.id));
  }
  for (const id of cochatModels) {
    if (!models.has(id)) issues.push(`cochatModels: unknown model ${id}`);
  }
  const embeddingModels = buildEmbeddingModels(sources, issues);
  if (issues.length > 0) throw new CatalogueError(issues);

  const kindOrder = { native: 0, external: 1, local: 2 } as const;
  const ordered = [...models.values()].sort((a, b) => kindOrder[a.kind] - kindOrder[b.kind]);
  const rolesByModel = new Map<string, TAgentRole[]>();
  for (const role of roles) {
    for (const id of role.suitableModels) {
      rolesByModel.set(id, [...(rolesByModel.get(id) ?? []), role.id]);
    }
  }
  return {
    models: ordered,
    roles,
    cochatModels: cochatModels.filter((id) => models.has(id)),
    embeddingModels: [...embeddingModels.values()],
    getModel: (id) => models.get(id),
    getRole: (id) => roles.find((r) => r.id === id),
    getEmbeddingModel: (id) => embeddingModels.get(id),
    rolesFor: (modelId) =>
      AGENT_ROLES.filter((role) => rolesByModel.get(modelId)?.includes(role) ?? false),
  };
}

/** The built-in embedding models, the local ones, then the file's changes and additions. */
function buildEmbeddingModels(sources: CatalogueSources, issues: string[]) {
  const models = new Map<string, CatalogueEmbeddingModel>(
    DEFAULT_EMBEDDING_MODELS.map((m) => [m.id, m]),
  );
  for (const name of sources.localEmbeddingModels ?? []) {
    const model = localEmbeddingModel(name);
    models.set(model.id, model);
  }
  for (const [index, entry] of (sources.file?.embeddingModels ?? []).entries()) {
    const base = models.get(entry.id);
    const merged = base
      ? { ...base, ...entry, price: { ...base.price, ...entry.price } }
      : { ...entry };
    const parsed = ZCatalogueEmbeddingModel.safeParse(merged);
    if (parsed.success) models.set(parsed.data.id, parsed.data);
    else issues.push(...issuesOf(parsed.error, `embeddingModels.${index} (${entry.id})`));
  }
  return models;
}

/**
 * Reads and checks MODELS_CONFIG_FILE at start-up: the JSON must match the schema and, merged
 * with the built-in catalogue, leave every reference resolvable. Throws CatalogueError.
 */
export function readModelsConfigFile(
  filePath: string,
  localModels: readonly string[] = [],
  localEmbeddingModels: readonly string[] = [],
  localImageModels: readonly string[] = [],
): ModelsConfigFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(filePath, "utf8"));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CatalogueError([`cannot read ${filePath} as JSON: ${reason}`]);
  }
  const parsed = ZModelsConfigFile.safeParse(raw);
  if (!parsed.success) throw new CatalogueError(issuesOf(parsed.error, filePath));
  buildCatalogue({ file: parsed.data, localModels, localEmbeddingModels, localImageModels });
  return parsed.data;
}
