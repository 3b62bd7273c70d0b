import type { FastifyInstance } from "fastify";
import type { CatalogueEmbeddingModel } from "../models/catalogue-schema";
import type { ModelsConfig } from "../models/models-config";

/** Unit-length vectors (cosine similarity is then a dot product) and the tokens they cost. */
export interface Embedding {
  vectors: number[][];
  /** Input tokens as the provider reported them (else estimated), summed over the batches. */
  tokens: number;
}

export interface Embedder {
  /** The catalogue id, stored with each embedded document. */
  readonly model: string;
  /** The catalogue entry: provider, provider's model name, price. */
  readonly entry: CatalogueEmbeddingModel;
  embed(texts: readonly string[]): Promise<Embedding>;
}

/** Inputs per request: OpenAI-compatible servers take batches; the AI SDK splits further. */
const BATCH = 96;

/**
 * An embedding model of the catalogue through the AI SDK's `embedMany` against its
 * provider's OpenAI-compatible embeddings endpoint; null without one (keyword search only).
 * The configuration checked at start-up that the provider has its key or base URL.
 */
export function createEmbedder(
  models: ModelsConfig,
  entry: CatalogueEmbeddingModel | undefined,
): Embedder | null {
  if (!entry) return null;
  const settings =
    entry.provider === "openai"
      ? { baseURL: models.openai.baseUrl, apiKey: models.openai.apiKey }
      : { baseURL: models.openaiCompatible.baseUrl, apiKey: models.openaiCompatible.apiKey };
  if (!settings.baseURL) throw new Error(`${entry.id}: its provider has no base URL`);
  const baseURL = settings.baseURL;
  const model = (async () => {
    const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
    return createOpenAICompatible({
      name: entry.provider,
      baseURL,
      ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
    }).textEmbeddingModel(entry.model);
  })();
  return {
    model: entry.id,
    entry,
    async embed(texts) {
      const { embedMany } = await import("ai");
      const vectors: number[][] = [];
      let tokens = 0;
      for (let at = 0; at < texts.length; at += BATCH) {
        const values = texts.slice(at, at + BATCH);
        const { embeddings, usage } = await embedMany({
          model: await model,
          values,
          maxRetries: models.maxAttempts - 1,
        });
        vectors.push(...embeddings.map(normalise));
        // A server that reports no usage is charged by estimate (~4 characters a token).
        const reported = usage?.tokens;
        tokens +=
          typeof reported === "number" && Number.isFinite(reported)
            ? reported
            : Math.ceil(values.reduce((sum, text) => sum + text.length, 0) / 4);
      }
      return { vectors, tokens };
    },
  };
}

/** The documents' embedder: EMBEDDING_MODEL's catalogue entry (checked at start-up). */
export function documentEmbedder(app: FastifyInstance): Embedder | null {
  const id = app.config.documents.embeddingModel;
  if (!id) return null;
  const entry = app.models.catalogue.getEmbeddingModel(id);
  if (!entry) throw new Error(`EMBEDDING_MODEL ${id} is not in the catalogue`);
  return createEmbedder(app.config.models, entry);
}

function normalise(vector: number[]): number[] {
  const length = Math.hypot(...vector) || 1;
  return vector.map((value) => value / length);
}
