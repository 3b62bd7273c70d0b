import { randomBytes } from "node:crypto";
import { ERROR_CODES, SHARE_MESSAGES, type TCreateShare, type TShareLink } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { getRun } from "../orchestration/run-store";
import { findDisplayNames } from "./share-names";
import { SHARE_COLUMNS, type ShareRow, toShareLink } from "./share-row";

/** 32 random bytes as base64url (43 characters): 256 bits, unguessable and URL-safe. */
export function newShareToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * A new link to the session (or to one of its runs). The caller has checked the creator's
 * role; a run must belong to the session, else the same 404 as for a run that is not there.
 */
export async function createShareLink(
  db: Queryable,
  input: { sessionId: string; userId: string; publicUrl: string; body: TCreateShare },
): Promise<TShareLink> {
  const { body } = input;
  const runId = body.run_id ?? null;
  if (runId !== null) {
    const run = await getRun(db, runId);
    if (!run || run.session_id !== input.sessionId) {
      throw new AppError(ERROR_CODES.notFound, 404, SHARE_MESSAGES.runNotInSession);
    }
  }
  const days = body.expires_in_days ?? null;
  const { rows } = await db.query<ShareRow>(
    `INSERT INTO share_links (token, session_id, run_id, created_by, show_costs, show_names, live, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7,
       CASE WHEN $8::integer IS NULL THEN NULL ELSE now() + make_interval(days => $8::integer) END)
     RETURNING ${SHARE_COLUMNS}`,
    [
      newShareToken(),
      input.sessionId,
      runId,
      input.userId,
      body.show_costs ?? false,
      body.show_names ?? false,
      body.live ?? false,
      days,
    ],
  );
  const row = rows[0] as ShareRow;
  const names = await findDisplayNames(db, [input.userId]);
  return toShareLink(row, input.publicUrl, names.get(input.userId) ?? null);
}
