import {
  ACCOUNT_DATA_MESSAGES,
  ACCOUNT_DATA_ROUTES,
  ACCOUNT_EXPORTS_PER_HOUR,
  accountDataFilename,
  ZDeleteAccountRequest,
  ZDeleteAccountResponse,
} from "@cohort/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { currentPrincipal, requireUser } from "../../platform/auth";
import { setCsrfSecretCookie } from "../../platform/csrf";
import { clearSignInCookie } from "../auth/sign-in-cookie";
import { type AccountStores, accountErasureDeps, deleteAccount } from "./account-delete";
import { streamAccountZip } from "./account-export-zip";

const tags = ["account"];

/** The zip's budget is the account's, not the address's: one user, a few zips an hour. */
async function perUser(request: FastifyRequest): Promise<string> {
  const principal = await currentPrincipal(request);
  return principal ? `account-export:user:${principal.user.id}` : `account-export:ip:${request.ip}`;
}

/**
 * All my data as one zip, and deleting my account (decision 044): what the privacy page promises.
 * Neither asks for the user agreement: a user who declined it can still take their data and go.
 */
export async function accountDataRoutes(
  app: FastifyInstance,
  /** The same files the documents, images and code-runner modules store, read and removed here. */
  stores: AccountStores,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    ACCOUNT_DATA_ROUTES.export,
    {
      config: {
        rateLimit: { max: ACCOUNT_EXPORTS_PER_HOUR, timeWindow: 3_600_000, keyGenerator: perUser },
      },
      schema: {
        tags,
        summary:
          "Everything stored about the signed-in user as a zip (README.txt, profile, workspaces, sessions, CoChat, documents and their files, memories, ledger); a few per hour",
        produces: ["application/zip"],
        response: { 200: z.any().describe("application/zip") },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const zip = streamAccountZip({ db: app.db, store: stores.store, log: request.log }, user);
      return reply
        .header("content-type", "application/zip")
        .header("content-disposition", `attachment; filename="${accountDataFilename()}"`)
        .header("cache-control", "private, no-store")
        .send(zip);
    },
  );

  r.delete(
    ACCOUNT_DATA_ROUTES.account,
    {
      schema: {
        tags,
        summary:
          "Deletes the signed-in user's account and data: confirm with DELETE and the password (or, without one, the email address); 409 while the user is the only owner of a team with members",
        body: ZDeleteAccountRequest,
        response: { 200: ZDeleteAccountResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      await deleteAccount(accountErasureDeps(app, stores), user, request.body, request.id);
      clearSignInCookie(reply, app.config.secureCookies);
      setCsrfSecretCookie(reply, app.config.secureCookies);
      return { success: true as const, message: ACCOUNT_DATA_MESSAGES.deleted };
    },
  );
}
