import type { CreditsDeps } from "./credits-deps";
import { releaseHold } from "./release-hold";

/**
 * Gives back every open hold of an account that is about to go: holds on its own accounts
 * (`accountIds`) and the holds it made as a member on team pools that stay (`memberId`).
 * Each goes through `releaseHold`, so a hold a run settles at the same moment is closed
 * exactly once. Returns how many were released here.
 */
export async function releaseOpenHolds(
  deps: CreditsDeps,
  accountIds: readonly string[],
  memberId: string,
): Promise<number> {
  const { rows } = await deps.db.query<{ id: string }>(
    `SELECT id FROM credit_holds
     WHERE (user_id = ANY($1::uuid[]) OR member_id = $2) AND status = 'open'`,
    [[...accountIds], memberId],
  );
  let released = 0;
  for (const row of rows) if (await releaseHold(deps, row.id)) released += 1;
  return released;
}
