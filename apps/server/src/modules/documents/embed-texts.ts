import type { AppConfig } from "../../config";

/** Turns texts into unit-length vectors (cosine similarity is then a dot product). */
export interface Embedder {
  readonly model: string;
  embed(texts: readonly string[]): Promise<number[][]>;
}

/** Inputs per request: OpenAI-compatible servers take batches; the AI SDK splits further. */
const BATCH = 96;

/**
 * The configured embedding model (EMBEDDING_MODEL = `openai:<name>` or
 * `openai-compatible:<name>`), through the AI SDK's `embedMany` against an OpenAI-compatible
 * embeddings endpoint; null without one (keyword search only). Decision 036.
 */
export function createEmbedder(config: AppConfig): Embedder | null {
  const id = config.documents.embeddingModel;
  if (!id) return null;
  const [provider, ...rest] = id.split(":");
  const name = rest.join(":");
  const models = config.models;
  const settings =
    provider === "openai" && models.openai.apiKey
      ? { baseURL: models.openai.baseUrl, apiKey: models.openai.apiKey }
      : provider === "openai-compatible" && models.openaiCompatible.baseUrl
        ? { baseURL: models.openaiCompatible.baseUrl, apiKey: models.openaiCompatible.apiKey }
        : null;
  if (!settings || !name) return null;
  const model = (async () => {
    const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
    return createOpenAICompatible({
      name: provider as string,
      baseURL: settings.baseURL,
      ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
    }).textEmbeddingModel(name);
  })();
  return {
    model: id,
    async embed(texts) {
      const { embedMany } = await import("ai");
      const vectors: number[][] = [];
      for (let at = 0; at < texts.length; at += BATCH) {
        const { embeddings } = await embedMany({
          model: await model,
          values: texts.slice(at, at + BATCH),
          maxRetries: config.models.maxAttempts - 1,
        });
        vectors.push(...embeddings.map(normalise));
      }
      return vectors;
    },
  };
}

function normalise(vector: number[]): number[] {
  const length = Math.hypot(...vector) || 1;
  return vector.map((value) => value / length);
}
