import type { TDeleteAccountRequest, TUserProfile } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client";
import type { Realtime } from "../../platform/realtime";
import { type AdminActor, recordAdminAction } from "../admin/record-admin-action";
import { dropSignInSockets } from "../auth/drop-sign-in-sockets";
import { revokeAllSignIns } from "../auth/revoke-sign-ins";
import { eraseSessionCodeFiles } from "../code-runner/erase-session-code-files";
import { type CreditsDeps, creditsDeps } from "../credits/credits-deps";
import { getCreditBalances } from "../credits/get-balance";
import { releaseOpenHolds } from "../credits/release-open-holds";
import { deleteDocument } from "../documents/delete-document";
import type { DocumentStore } from "../documents/document-store";
import { listDocumentsToErase } from "../documents/list-account-documents";
import { eraseSessionImages } from "../images/erase-session-images";
import { listActiveRunSessions } from "../orchestration/list-active-run-sessions";
import { listSessionIdsOf } from "../sessions/list-account-sessions";
import { forgetUserTelemetry } from "../telemetry/forget-user-telemetry";
import { deleteUser } from "../users/delete-user";
import {
  deleteWorkspaces,
  listAccountMemberships,
  planWorkspaceErasure,
} from "../workspaces/account-workspaces";
import { recordAccountDeparture } from "../workspaces/record-account-departure";
import { checkDeleteConfirmation, checkNothingBlocksDeletion } from "./account-delete-checks";

export interface DeleteAccountDeps {
  db: Db;
  store: DocumentStore;
  /** Where the pictures image models made are kept (decision 064). */
  imageStore: DocumentStore;
  /** Where the files run_code wrote are kept (decisions 068, 076). */
  codeFileStore: DocumentStore;
  credits: CreditsDeps;
  realtime: Realtime;
  /** Stops the session's active run and waits for it to end (the run engine's, from the app). */
  cancelSessionRun(sessionId: string): Promise<void>;
}

/** The stores an account's files are erased from. */
export type AccountStores = Pick<DeleteAccountDeps, "store" | "imageStore" | "codeFileStore">;

/** What the erasure needs, as the app has it: the holder's own deletion and an admin's alike. */
export function accountErasureDeps(app: FastifyInstance, stores: AccountStores): DeleteAccountDeps {
  return {
    db: app.db,
    ...stores,
    credits: creditsDeps(app),
    realtime: app.realtime,
    cancelSessionRun: (sessionId) => app.orchestration.control.cancelSessionRun(sessionId),
  };
}

/**
 * Deletes the account, in an order where each step leaves nothing the next one cannot reach:
 * 1. the confirmation and what blocks it (403 / 409: nothing has changed yet);
 * 2. every sign-in revoked and its sockets dropped, so the account makes no new data meanwhile;
 * 3. its runs stopped (their holds go back), its documents deleted with their files, the
 *    pictures and run_code files of its sessions with their bytes, any hold
 *    still open on an account that goes, or made by the user on a team's pool, released;
 * 4. one transaction: the admin audit entry, the departure in the audit log of every team
 *    that stays (decision 052), the workspaces that go with the account
 *    (personal, and teams where it is the only member) and the user row, which cascade the
 *    rest. The credit ledger and usage rows stay: they reference an account id that no longer
 *    names anyone (no user, no workspace, no email). The balance is forfeited;
 * 5. its telemetry forgotten.
 */
export async function deleteAccount(
  deps: DeleteAccountDeps,
  user: TUserProfile,
  body: TDeleteAccountRequest,
  requestId: string,
): Promise<void> {
  await checkDeleteConfirmation(deps.db, user, body);
  // The entry names the account by its id only: the email goes with the account.
  await eraseAccount(deps, user, {
    actor: { id: user.id, email: "", requestId },
    reason: "Deleted by the account holder",
  });
}

/**
 * Steps 2 to 5 above, for the holder's own deletion and for an administrator's on their
 * behalf (decision 056): the same erasure, the audit entry naming who asked and why.
 */
export async function eraseAccount(
  deps: DeleteAccountDeps,
  user: TUserProfile,
  by: { actor: AdminActor; reason: string },
): Promise<void> {
  const { db } = deps;
  const memberships = await listAccountMemberships(db, user.id);
  const plan = planWorkspaceErasure(memberships);
  await checkNothingBlocksDeletion(db, user.id, plan.blocking);
  const erased = plan.erase.map((workspace) => workspace.workspace_id);

  dropSignInSockets(deps.realtime, await revokeAllSignIns(db, user.id));

  // Runs in the sessions that go, and the user's own runs in teams' sessions that stay.
  const sessionIds = await listSessionIdsOf(db, user.id, erased);
  const running = new Set([...sessionIds, ...(await listActiveRunSessions(db, user.id))]);
  for (const sessionId of running) await deps.cancelSessionRun(sessionId);
  const documents = await listDocumentsToErase(db, user.id, erased);
  for (const document of documents) {
    await deleteDocument(db, deps.store, document.userId, document.id);
  }
  await eraseSessionImages(db, deps.imageStore, sessionIds);
  await eraseSessionCodeFiles(db, deps.codeFileStore, sessionIds);
  await releaseOpenHolds(deps.credits, erased, user.id);
  const balances = await getCreditBalances(db, erased);
  const forfeited = [...balances.values()].reduce((sum, credits) => sum + credits, 0);

  await db.transaction(async (tx) => {
    await recordAdminAction(tx, by.actor, {
      action: "account.deleted",
      targetType: "user",
      targetId: user.id,
      before: {
        sessions: sessionIds.length,
        documents: documents.length,
        workspaces_deleted: erased.length,
        credits_forfeited: Math.round(forfeited * 100) / 100,
      },
      after: null,
      reason: by.reason,
    });
    await recordAccountDeparture(
      tx,
      user,
      memberships.filter((m) => !erased.includes(m.workspace_id)),
    );
    await deleteWorkspaces(tx, erased);
    await deleteUser(tx, user.id);
  });
  await forgetUserTelemetry(db, user.id);
}
