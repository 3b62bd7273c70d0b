import type { FastifyInstance } from "fastify";
import type { DocumentStore } from "../documents/document-store";
import { imageToolProvider } from "./image-tool";
import { imageRoutes } from "./routes";

/** Images (decision 064): their route, and `generate_image` in the tool registry. */
export async function registerImages(app: FastifyInstance, store: DocumentStore): Promise<void> {
  await app.register(imageRoutes, { store });
  app.tools.addProvider(
    imageToolProvider({
      db: app.db,
      models: app.models,
      store,
      timeoutMs: app.config.models.callTimeoutMs,
    }),
  );
}
