import {
  ZAdminModelOverrideRequest,
  ZAdminModelParams,
  ZAdminModelsResponse,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { actorOf } from "./admin-actor";
import { listAdminModels } from "./list-admin-models";
import { overrideModel } from "./override-model";

const tags = ["admin"];

/** The model catalogue as an admin sees it, and switching a model or its price. */
export async function modelRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/api/admin/models",
    {
      schema: {
        tags,
        summary: "Every catalogue model with its on/off state and price override; provider health",
        response: { 200: ZAdminModelsResponse },
      },
    },
    async () => listAdminModels(app.models, app.modelOverrides),
  );

  r.put(
    "/api/admin/models/:id",
    {
      schema: {
        tags,
        summary:
          "Switch a model on or off and set (or clear) its price; audited, no restart needed",
        params: ZAdminModelParams,
        body: ZAdminModelOverrideRequest,
        response: { 200: ZAdminModelsResponse },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      await overrideModel(
        { db: app.db, overrides: app.modelOverrides },
        actor,
        request.params.id,
        request.body,
      );
      return listAdminModels(app.models, app.modelOverrides);
    },
  );
}
