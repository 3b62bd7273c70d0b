import type { TWorkspaceRole } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { isUuid } from "../../db/uuid";
import { AppError } from "../../platform/errors";
import { findSessionFor } from "../sessions/find-session";
import { runNotFound } from "./ended-run-work";
import { findRunRef, type RunRef } from "./run-store";

/**
 * A run in a session `userId` may read (`least` viewer) or act in (member): the same 404 for
 * a run in a workspace the user is not a member of as for one that does not exist, 403
 * `workspace_role_too_low` for a member whose role is below `least` (decision 040).
 */
export async function findRunFor(
  db: Queryable,
  userId: string,
  runId: string,
  least: TWorkspaceRole = "viewer",
): Promise<RunRef> {
  const run = isUuid(runId) ? await findRunRef(db, runId) : null;
  if (!run) throw runNotFound();
  try {
    await findSessionFor(db, userId, run.sessionId, { least });
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) throw runNotFound();
    throw error;
  }
  return run;
}
