/**
 * Who pays for a call: a credit account, which is a workspace's (a personal workspace's id is
 * its user's id), and, for a team workspace's pooled account, the member whose monthly cap
 * the call counts against. `memberId` is null when the account is the caller's own.
 */
export interface Payer {
  accountId: string;
  memberId: string | null;
}

/** The caller's own account: personal workspaces, memory proposals and the public API. */
export function personalPayer(userId: string): Payer {
  return { accountId: userId, memberId: null };
}
