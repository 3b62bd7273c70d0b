import type { TEmbeddingModel } from "@cohort/contracts";
import { type Catalogue, CatalogueError } from "./catalogue";
import type { CatalogueEmbeddingModel } from "./catalogue-schema";
import { localModelId } from "./default-catalogue";
import type { ModelsConfig } from "./models-config";

const LEGACY_LOCAL = "openai-compatible:";
const LEGACY_OPENAI = "openai:";

/**
 * The local model name a legacy EMBEDDING_MODEL (`openai-compatible:<name>`) implies: it
 * joins OPENAI_COMPATIBLE_EMBEDDING_MODELS, so settings written before the catalogue had
 * embedding models keep working.
 */
export function legacyLocalEmbeddingName(setting: string | undefined): string | undefined {
  return setting?.startsWith(LEGACY_LOCAL) ? setting.slice(LEGACY_LOCAL.length) : undefined;
}

/** Whether the model's provider has a key (OpenAI) or a base URL (a local server). */
export function embeddingProviderReady(
  models: ModelsConfig,
  model: CatalogueEmbeddingModel,
): boolean {
  return model.provider === "openai"
    ? Boolean(models.openai.apiKey)
    : Boolean(models.openaiCompatible.baseUrl);
}

/**
 * EMBEDDING_MODEL → the catalogue's embedding model: a catalogue id, or the legacy forms
 * `openai:<name>` (the OpenAI entry of that name) and `openai-compatible:<name>`
 * (`local:<name>`). An unknown model or a provider without key/base URL throws
 * CatalogueError: a start-up error, never a silent fall back to keyword search.
 */
export function resolveEmbeddingModel(
  catalogue: Catalogue,
  models: ModelsConfig,
  setting: string,
): CatalogueEmbeddingModel {
  const local = legacyLocalEmbeddingName(setting);
  const openaiName = setting.startsWith(LEGACY_OPENAI)
    ? setting.slice(LEGACY_OPENAI.length)
    : undefined;
  const model =
    local !== undefined
      ? catalogue.getEmbeddingModel(localModelId(local))
      : openaiName !== undefined
        ? catalogue.embeddingModels.find((m) => m.provider === "openai" && m.model === openaiName)
        : catalogue.getEmbeddingModel(setting);
  if (!model) {
    const known = catalogue.embeddingModels.map((m) => m.id).join(", ");
    throw new CatalogueError([
      `"${setting}" is not an embedding model of the catalogue; choose one of: ${known} (or add it with OPENAI_COMPATIBLE_EMBEDDING_MODELS or MODELS_CONFIG_FILE embeddingModels)`,
    ]);
  }
  if (!embeddingProviderReady(models, model)) {
    const needs = model.provider === "openai" ? "OPENAI_API_KEY" : "OPENAI_COMPATIBLE_BASE_URL";
    throw new CatalogueError([`${model.id} needs ${needs}`]);
  }
  return model;
}

/** The catalogue's embedding models as GET /api/models/embeddings shows them. */
export function listEmbeddingModels(catalogue: Catalogue, models: ModelsConfig): TEmbeddingModel[] {
  return catalogue.embeddingModels.map((model) => ({
    id: model.id,
    name: model.name,
    provider: model.provider,
    dimensions: model.dimensions,
    price: { ...model.price },
    usable: embeddingProviderReady(models, model),
  }));
}
