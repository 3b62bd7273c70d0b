import type { FastifyInstance } from "fastify";
import { buildCatalogue, type Catalogue } from "./catalogue";
import { createLiveCatalogue } from "./live-catalogue";
import { createLocalModelServers, type LocalModelServers } from "./local-model-servers";
import type { ModelsConfig } from "./models-config";

declare module "fastify" {
  interface FastifyInstance {
    /** Local model servers found on loopback ports (decision 056). */
    localModelServers: LocalModelServers;
  }
}

/**
 * The catalogue from defaults, file and env, plus the models of the local servers found on
 * loopback ports: looked for once at start, when the app is otherwise ready (it is ready
 * when that look ends, at most one probe time-out later), and again from Settings, each
 * change rebuilding the catalogue.
 */
export function registerLocalModels(
  app: FastifyInstance,
  config: ModelsConfig,
): { catalogue: Catalogue; localServers: LocalModelServers } {
  const localServers = createLocalModelServers(config.localDiscovery, app.log);
  const live = createLiveCatalogue(() =>
    buildCatalogue({
      file: config.catalogueFile,
      localModels: config.openaiCompatible.models,
      localEmbeddingModels: config.openaiCompatible.embeddingModels ?? [],
      localImageModels: config.openaiCompatible.imageModels ?? [],
      discoveredModels: localServers
        .servers()
        .flatMap((server) => server.models.map((model) => ({ model, server: server.name }))),
    }),
  );
  localServers.onChange(() => live.rebuild());
  app.decorate("localModelServers", localServers);
  if (localServers.enabled) {
    // Looked for once every plugin is loaded, not while they load: a probe's time-out counted
    // from here ran out while registering the routes held the thread (decision 097), and a
    // server that had answered at once was reported as not there.
    app.addHook("onReady", async () => {
      await localServers.lookAgain();
    });
  }
  return { catalogue: live.catalogue, localServers };
}
