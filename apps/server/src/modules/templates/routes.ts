import {
  TEMPLATE_ERROR_CODES,
  TEMPLATE_MESSAGES,
  TEMPLATE_ROUTES,
  ZCreateTemplateRequest,
  ZDeleteTemplateResponse,
  ZStartFromTemplateRequest,
  ZStartFromTemplateResponse,
  ZTemplateList,
  ZTemplateListQuery,
  ZTemplateParams,
  ZTemplateResponse,
  ZUpdateTemplateRequest,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError } from "../../platform/errors";
import { requireAgreement } from "../agreements/require-agreement";
import { documentSearch } from "../documents/document-search";
import { checkModelChoices } from "../sessions/check-model-choices";
import { withActivity } from "../sessions/session-activity";
import { checkToolSettings } from "../tools/check-tool-settings";
import { requireWorkspaceAccess } from "../workspaces/workspace-access";
import { createTemplate, deleteTemplate, updateTemplate } from "./change-template";
import { findTemplateFor, requireTemplateEditable } from "./find-template";
import { listTemplates } from "./list-templates";
import { sessionSetup } from "./session-setup";
import { startFromTemplate } from "./start-from-template";
import { requireTemplatePlan } from "./template-plan";
import { storedSetup, toTemplate } from "./template-row";

const tags = ["templates"];

/**
 * Saved setups (decision 042): a workspace's templates. Reading is for every member who can see
 * a template (shared, or their own); saving, changing and starting need the member role and
 * the Pro+ or Enterprise plan; changing and deleting need the creator or an admin.
 */
export async function templateRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const catalogue = app.models.catalogue;
  const search = documentSearch(app);

  r.get(
    TEMPLATE_ROUTES.list,
    {
      schema: {
        tags,
        summary:
          "A workspace's templates the caller sees: the shared ones and the caller's own, by name",
        querystring: ZTemplateListQuery,
        response: { 200: ZTemplateList },
      },
    },
    async (request, reply) => {
      const { user } = await requireAgreement(request);
      const access = await requireWorkspaceAccess(app.db, user.id, request.query.workspace_id);
      reply.header("cache-control", "no-store");
      return { templates: await listTemplates(app.db, user.id, access) };
    },
  );

  r.post(
    TEMPLATE_ROUTES.list,
    {
      schema: {
        tags,
        summary:
          "Save a setup as a template: from a session (its setup and attached documents) or given outright (Pro+, member)",
        body: ZCreateTemplateRequest,
        response: { 201: ZTemplateResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireTemplatePlan(request);
      const body = request.body;
      let workspaceId: string;
      let setup = body.setup;
      if (body.from_session_id !== undefined) {
        const saved = await sessionSetup(app.db, user.id, body.from_session_id);
        if (body.workspace_id !== undefined && body.workspace_id !== saved.workspaceId) {
          throw new AppError(
            TEMPLATE_ERROR_CODES.workspaceMismatch,
            400,
            TEMPLATE_MESSAGES.workspaceMismatch,
          );
        }
        workspaceId = saved.workspaceId;
        setup = saved.setup;
      } else {
        workspaceId = (await requireWorkspaceAccess(app.db, user.id, body.workspace_id, "member"))
          .workspaceId;
      }
      if (!setup) throw new Error("a create request has a session or a setup");
      checkModelChoices(catalogue, setup);
      if (body.setup) {
        await checkToolSettings(app.tools, { userId: user.id, workspaceId }, body.setup.tools);
      }
      const row = await createTemplate(app.db, user.id, {
        workspaceId,
        name: body.name,
        description: body.description,
        shared: body.shared,
        setup,
      });
      const { viewer } = await findTemplateFor(app.db, user.id, row.id);
      return reply.status(201).send({ template: toTemplate(row, viewer) });
    },
  );

  r.get(
    "/api/templates/:id",
    {
      schema: {
        tags,
        summary: "One template (shared in the workspace, or the caller's own)",
        params: ZTemplateParams,
        response: { 200: ZTemplateResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireAgreement(request);
      const { row, viewer } = await findTemplateFor(app.db, user.id, request.params.id);
      reply.header("cache-control", "no-store");
      return { template: toTemplate(row, viewer) };
    },
  );

  r.patch(
    "/api/templates/:id",
    {
      schema: {
        tags,
        summary:
          "Rename, describe, share or unshare, or replace the setup; fields left out stay (Pro+; creator or admin)",
        params: ZTemplateParams,
        body: ZUpdateTemplateRequest,
        response: { 200: ZTemplateResponse },
      },
    },
    async (request) => {
      const { user } = await requireTemplatePlan(request);
      const found = await findTemplateFor(app.db, user.id, request.params.id);
      requireTemplateEditable(found);
      if (request.body.setup) {
        checkModelChoices(catalogue, request.body.setup);
        await checkToolSettings(
          app.tools,
          { userId: user.id, workspaceId: found.row.workspace_id },
          request.body.setup.tools,
          storedSetup(found.row.setup).tools,
        );
      }
      const row = await updateTemplate(app.db, found.row.id, request.body);
      return { template: toTemplate(row, found.viewer) };
    },
  );

  r.delete(
    "/api/templates/:id",
    {
      schema: {
        tags,
        summary: "Delete a template; sessions started from it stay (creator or admin)",
        params: ZTemplateParams,
        response: { 200: ZDeleteTemplateResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      const found = await findTemplateFor(app.db, user.id, request.params.id);
      requireTemplateEditable(found);
      await deleteTemplate(app.db, found.row.id);
      return { deleted: true as const };
    },
  );

  r.post(
    "/api/templates/:id/sessions",
    {
      schema: {
        tags,
        summary:
          "Start a session from a template, in its workspace, with its setup and the documents still there (Pro+, member)",
        params: ZTemplateParams,
        body: ZStartFromTemplateRequest,
        response: { 201: ZStartFromTemplateResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireTemplatePlan(request);
      const { row } = await findTemplateFor(app.db, user.id, request.params.id, "member");
      const started = await startFromTemplate(
        { db: app.db, catalogue, search },
        user.id,
        row.workspace_id,
        request.body.title,
        storedSetup(row.setup),
      );
      return reply.status(201).send({
        session: withActivity(started.session, undefined),
        document_ids: started.documentIds,
      });
    },
  );
}
