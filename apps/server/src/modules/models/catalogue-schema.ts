import {
  AGENT_ROLES,
  EMBEDDING_PROVIDER_IDS,
  MODEL_CAPABILITIES,
  PROVIDER_IDS,
  ZEmbeddingPrice,
  ZModelPrice,
} from "@cohort/contracts";
import { z } from "zod";

/**
 * The server's full description of a model: what the API shows plus what only the server
 * needs (backing provider models, system prompt). Operators write the same shape in the
 * MODELS_CONFIG_FILE, so it is camelCase JSON except `price`, which matches the wire.
 */
export const ZModelBackend = z.object({
  provider: z.enum(PROVIDER_IDS),
  /** The provider's own model name, e.g. `gpt-4.1` or `claude-sonnet-4-0`. */
  model: z.string().min(1),
});
export type ModelBackend = z.infer<typeof ZModelBackend>;

export const ZCatalogueModel = z.object({
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.:_-]{0,63}$/, "use lower-case letters, digits, '.', ':', '_' or '-'"),
  name: z.string().min(1).max(60),
  kind: z.enum(["native", "external", "local"]),
  family: z.enum(["co", "gpt", "claude", "gemini", "local"]),
  purpose: z.string().min(1).max(80),
  description: z.string().min(1).max(500),
  /** In preference order: a failing provider falls back to the next configured one. */
  backends: z.array(ZModelBackend).min(1),
  systemPrompt: z.string().max(8000),
  temperature: z.number().min(0).max(2),
  /** The default and largest output per call; credit reservations use it. */
  maxOutputTokens: z.number().int().positive(),
  contextWindow: z.number().int().positive(),
  price: ZModelPrice,
  capabilities: z.array(z.enum(MODEL_CAPABILITIES)).min(1),
});
export type CatalogueModel = z.infer<typeof ZCatalogueModel>;

/** An embedding model (documents' hybrid search): a list apart from the chat models. */
export const ZCatalogueEmbeddingModel = z.object({
  id: ZCatalogueModel.shape.id,
  name: z.string().min(1).max(60),
  provider: z.enum(EMBEDDING_PROVIDER_IDS),
  /** The provider's own model name, e.g. `text-embedding-3-small`. */
  model: z.string().min(1),
  dimensions: z.number().int().positive().nullable(),
  price: ZEmbeddingPrice,
});
export type CatalogueEmbeddingModel = z.infer<typeof ZCatalogueEmbeddingModel>;

export const ZCatalogueRole = z.object({
  id: z.enum(AGENT_ROLES),
  name: z.string().min(1),
  description: z.string().min(1),
  systemPrompt: z.string().min(1).max(8000),
  defaultModel: z.string().min(1),
  suitableModels: z.array(z.string().min(1)),
});
export type CatalogueRole = z.infer<typeof ZCatalogueRole>;

/**
 * MODELS_CONFIG_FILE: changes to the built-in catalogue. A model entry with a known id
 * changes only the fields it gives (`price` may be partial); one with a new id adds a model
 * and must be complete. Roles change field by field. `cochatModels` replaces the CoChat list.
 * `embeddingModels` change or add embedding models the way `models` do chat models.
 */
export const ZModelsConfigFile = z
  .object({
    models: z
      .array(
        ZCatalogueModel.partial().extend({
          id: ZCatalogueModel.shape.id,
          price: ZModelPrice.partial().optional(),
        }),
      )
      .default([]),
    /** Ids of external models to drop (the native Co* models are part of the product). */
    remove: z.array(z.string()).default([]),
    roles: z.array(ZCatalogueRole.partial().extend({ id: ZCatalogueRole.shape.id })).default([]),
    cochatModels: z.array(z.string()).min(1).optional(),
    /** Embedding models to change (known id, any fields) or add (new id, complete). */
    embeddingModels: z
      .array(ZCatalogueEmbeddingModel.partial().extend({ id: ZCatalogueEmbeddingModel.shape.id }))
      .default([]),
  })
  .strict();
export type ModelsConfigFile = z.infer<typeof ZModelsConfigFile>;
