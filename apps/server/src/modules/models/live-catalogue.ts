import type { Catalogue } from "./catalogue";

/**
 * A catalogue that can be rebuilt while the server runs: local model servers found after
 * start (Settings → "Look again", decision 056) add their models. Every read goes to the
 * newest build, so the admin overrides, the gateway and the routes built on top of it see
 * the change at once.
 */
export interface LiveCatalogue {
  readonly catalogue: Catalogue;
  rebuild(): void;
}

export function createLiveCatalogue(build: () => Catalogue): LiveCatalogue {
  let current = build();
  const catalogue: Catalogue = {
    get models() {
      return current.models;
    },
    get roles() {
      return current.roles;
    },
    get cochatModels() {
      return current.cochatModels;
    },
    get embeddingModels() {
      return current.embeddingModels;
    },
    getModel: (id) => current.getModel(id),
    getRole: (id) => current.getRole(id),
    getEmbeddingModel: (id) => current.getEmbeddingModel(id),
    rolesFor: (modelId) => current.rolesFor(modelId),
  };
  return {
    catalogue,
    rebuild() {
      current = build();
    },
  };
}
