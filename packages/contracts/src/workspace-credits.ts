import { z } from "zod";
import { ZCreditAmount } from "./money";
import { formatCredits } from "./plans";
import { ZWorkspaceRole } from "./workspaces";

/**
 * A team workspace's pooled credits (decision 040): the pool's balance, each member's monthly
 * cap and what each member used this month. Amounts are decimal credits on the wire.
 */

export const WORKSPACE_CREDIT_ERROR_CODES = {
  /** The member's monthly cap in the workspace cannot cover the call. */
  memberCapReached: "member_cap_reached",
} as const;

export const WORKSPACE_CREDIT_MESSAGES = {
  memberCapReached: (cap: number) =>
    `You have reached your monthly cap of ${formatCredits(cap)} credits in this workspace.`,
  subscriptionPersonal:
    "Subscriptions belong to a person. Buy credit packs for a team workspace instead.",
} as const;

export const WORKSPACE_CREDIT_ROUTES = {
  credits: (workspaceId: string) => `/api/workspaces/${workspaceId}/credits`,
  usage: (workspaceId: string) => `/api/workspaces/${workspaceId}/usage`,
  memberCap: (workspaceId: string, userId: string) =>
    `/api/workspaces/${workspaceId}/members/${userId}/cap`,
} as const;

/** The pool as one member sees it, with that member's own cap and use this month. */
export const ZWorkspaceCredits = z.object({
  balance: z.number().describe("The pool's balance"),
  available: z.number().describe("The pool's balance less its open holds"),
  my_monthly_cap: z.number().nullable().describe("The caller's monthly cap; null: no cap"),
  my_spent_this_month: z
    .number()
    .describe("Charged to the pool for the caller's calls this month (UTC)"),
  my_held: z.number().describe("Held for the caller's calls still running"),
});
export type TWorkspaceCredits = z.infer<typeof ZWorkspaceCredits>;

/** A calendar month, `YYYY-MM` (UTC). */
export const ZUsageMonth = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: "Give the month as YYYY-MM." });

export const ZWorkspaceUsageQuery = z.object({
  month: ZUsageMonth.optional().describe("YYYY-MM (UTC); this month if left out"),
});
export type TWorkspaceUsageQuery = z.infer<typeof ZWorkspaceUsageQuery>;

export const ZWorkspaceMemberUsage = z.object({
  user_id: z.uuid(),
  email: z.string(),
  display_name: z.string(),
  role: ZWorkspaceRole,
  spent_credits: z.number(),
  held_credits: z.number(),
  monthly_cap_credits: z.number().nullable(),
  calls: z.number().int().describe("Model calls paid from the pool in the month"),
  departed: z
    .enum(["deleted", "left"])
    .optional()
    .describe(
      "Spent in the month but no longer a member: the account was deleted (shown as Deleted member) or left",
    ),
});
export type TWorkspaceMemberUsage = z.infer<typeof ZWorkspaceMemberUsage>;

export const ZWorkspaceUsage = z.object({
  month: ZUsageMonth,
  members: z.array(ZWorkspaceMemberUsage),
});
export type TWorkspaceUsage = z.infer<typeof ZWorkspaceUsage>;

export const ZSetMemberCap = z.object({
  monthly_cap_credits: ZCreditAmount.refine((v) => v >= 0 && v <= 10_000_000, {
    error: "Give a cap between 0 and 10,000,000 credits, or null for no cap.",
  }).nullable(),
});
export type TSetMemberCap = z.infer<typeof ZSetMemberCap>;

export const ZMemberCap = z.object({
  user_id: z.uuid(),
  monthly_cap_credits: z.number().nullable(),
});
export type TMemberCap = z.infer<typeof ZMemberCap>;
