import type { TModelPrice } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { Queryable } from "../../db/client";
import type { Catalogue } from "./catalogue";
import type { CatalogueModel } from "./catalogue-schema";

/**
 * The admin area's changes to the catalogue: a model switched off, or priced differently.
 * The catalogue from defaults, file and env stays as built at start-up; this layer sits on
 * top of it and is read on every lookup, so a change applies at once on this instance and
 * within REFRESH_MS on every other one (each re-reads the small table), with no restart.
 */
export interface ModelOverride {
  modelId: string;
  enabled: boolean;
  /** null: the catalogue's own price. */
  price: TModelPrice | null;
}

export interface ModelOverrides {
  /** The catalogue with the overrides applied: what the gateway and every module see. */
  readonly catalogue: Catalogue;
  /** The catalogue as built at start-up, before any override. */
  readonly base: Catalogue;
  get(modelId: string): ModelOverride | undefined;
  /**
   * Stores an override (in the caller's transaction); returns the one it replaced. Call
   * refresh() after commit to apply it here at once.
   */
  save(db: Queryable, override: ModelOverride): Promise<ModelOverride | undefined>;
  /** Re-reads the table: the other instances do it every REFRESH_MS. */
  refresh(): Promise<void>;
  stop(): void;
}

declare module "fastify" {
  interface FastifyInstance {
    modelOverrides: ModelOverrides;
  }
}

const REFRESH_MS = 15_000;

interface Row {
  model_id: string;
  enabled: boolean;
  input_per_1k: number | null;
  output_per_1k: number | null;
}

function toOverride(row: Row): ModelOverride {
  return {
    modelId: row.model_id,
    enabled: row.enabled,
    price:
      row.input_per_1k === null || row.output_per_1k === null
        ? null
        : { input_per_1k: Number(row.input_per_1k), output_per_1k: Number(row.output_per_1k) },
  };
}

async function readOverrides(db: Queryable): Promise<Map<string, ModelOverride>> {
  const { rows } = await db.query<Row>(
    "SELECT model_id, enabled, input_per_1k::float8, output_per_1k::float8 FROM model_overrides",
  );
  return new Map(rows.map((row) => [row.model_id, toOverride(row)]));
}

/** The catalogue seen through the overrides: disabled models are gone, prices replaced. */
export function applyModelOverrides(
  base: Catalogue,
  lookup: (modelId: string) => ModelOverride | undefined,
): Catalogue {
  const enabled = (id: string) => lookup(id)?.enabled ?? true;
  const priced = (model: CatalogueModel): CatalogueModel => {
    const price = lookup(model.id)?.price;
    // The admin area prices tokens; an image model keeps its price per image (decision 064).
    return price ? { ...model, price: { ...model.price, ...price } } : model;
  };
  const roles = () =>
    base.roles.map((role) => ({
      ...role,
      suitableModels: role.suitableModels.filter(enabled),
    }));
  return {
    get models() {
      return base.models.filter((model) => enabled(model.id)).map(priced);
    },
    get roles() {
      return roles();
    },
    get cochatModels() {
      return base.cochatModels.filter(enabled);
    },
    // Embedding models are not switched or priced by the admin area.
    embeddingModels: base.embeddingModels,
    getEmbeddingModel: (id) => base.getEmbeddingModel(id),
    getModel(id) {
      const model = base.getModel(id);
      return model && enabled(id) ? priced(model) : undefined;
    },
    getRole: (id) => roles().find((role) => role.id === id),
    rolesFor: (modelId) => (enabled(modelId) ? base.rolesFor(modelId) : []),
  };
}

/**
 * Loads the overrides, decorates `app.modelOverrides` and returns the catalogue to build
 * the gateway with. Re-reads the table every REFRESH_MS until the app closes.
 */
export async function registerModelOverrides(
  app: FastifyInstance,
  db: Queryable,
  base: Catalogue,
): Promise<Catalogue> {
  let current = await readOverrides(db);
  const refresh = async () => {
    current = await readOverrides(db);
  };
  const timer = setInterval(() => {
    refresh().catch((error: unknown) =>
      app.log.warn({ err: error }, "model overrides not re-read"),
    );
  }, REFRESH_MS);
  timer.unref();
  const overrides: ModelOverrides = {
    catalogue: applyModelOverrides(base, (id) => current.get(id)),
    base,
    get: (id) => current.get(id),
    async save(queryable, override) {
      const before = (await readOverrides(queryable)).get(override.modelId);
      await queryable.query(
        `INSERT INTO model_overrides (model_id, enabled, input_per_1k, output_per_1k)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (model_id) DO UPDATE SET enabled = $2, input_per_1k = $3,
           output_per_1k = $4, updated_at = clock_timestamp()`,
        [
          override.modelId,
          override.enabled,
          override.price?.input_per_1k ?? null,
          override.price?.output_per_1k ?? null,
        ],
      );
      return before;
    },
    refresh,
    stop: () => clearInterval(timer),
  };
  app.decorate("modelOverrides", overrides);
  app.addHook("onClose", async () => overrides.stop());
  return overrides.catalogue;
}
