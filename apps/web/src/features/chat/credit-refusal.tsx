import {
  ERROR_CODES,
  RUN_ERROR_CODES,
  roleAtLeast,
  SPENDING_ERROR_CODES,
  type TCreditLimitKind,
  type TSession,
  WORKSPACE_CREDIT_ERROR_CODES,
  ZCreditRefusal,
} from "@cohort/contracts";
import { Link } from "react-router";
import { useCurrentWorkspace } from "../workspaces/current-workspace";
import { WORKSPACE_SETTINGS_PATH } from "../workspaces/team-credits";
import { RaiseBudget } from "./raise-budget";

/**
 * A refusal for money (decision 054): which limit bit, what is left of it and what the
 * smallest step needs (the server's message says both figures), so the screen can offer the
 * one action that helps.
 */
export interface CreditRefusal {
  limit: TCreditLimitKind;
  available: number | null;
  required: number | null;
}

export const SPENDING_LIMIT_SETTINGS_PATH = "/settings#spending-limit";

/** The heading of a refusal, per limit. */
export const REFUSAL_TITLES: Record<TCreditLimitKind, string> = {
  balance: "Out of credits",
  workspace_pool: "The team pool is out of credits",
  member_cap: "Your monthly cap in this workspace is reached",
  session_budget: "The session's budget does not cover the next step",
  personal_limit: "Your monthly spending limit is reached",
};

const LIMIT_OF_CODE: Record<string, TCreditLimitKind> = {
  [WORKSPACE_CREDIT_ERROR_CODES.memberCapReached]: "member_cap",
  [RUN_ERROR_CODES.budgetExceeded]: "session_budget",
  [SPENDING_ERROR_CODES.personalLimitReached]: "personal_limit",
};

/**
 * The refusal in an error's code and details; null when the error is not about money. A
 * refusal stored before refusals named their limit is read from its code, and "out of
 * credits" in a team session means the team's pool.
 */
export function creditRefusalOf(
  code: string,
  details: unknown,
  session: Pick<TSession, "workspace_id"> | null,
  userId: string | undefined,
): CreditRefusal | null {
  const parsed = ZCreditRefusal.partial().safeParse(details);
  const named = parsed.success ? parsed.data : {};
  const fromCode =
    code === ERROR_CODES.insufficientCredits
      ? session && userId !== undefined && session.workspace_id !== userId
        ? "workspace_pool"
        : "balance"
      : LIMIT_OF_CODE[code];
  const limit = named.limit ?? fromCode;
  if (!limit) return null;
  return { limit, available: named.available ?? null, required: named.required ?? null };
}

const linkClass = "mt-1.5 inline-block font-semibold underline";

/**
 * What the user can do about it: add credits (their own balance), add to the team's pool or
 * set a cap (a workspace admin), ask the owner (a member), raise the session's budget there
 * and then, or raise the personal limit in Settings.
 */
export function RefusalAction({
  refusal,
  session,
  onSessionChange,
}: {
  refusal: CreditRefusal;
  session: TSession;
  onSessionChange(session: TSession): void;
}) {
  const { workspaces } = useCurrentWorkspace();
  const role = workspaces.find((w) => w.id === session.workspace_id)?.role;
  const manager = role !== undefined && roleAtLeast(role, "admin");
  switch (refusal.limit) {
    case "balance":
      return (
        <Link to="/billing" className={linkClass} data-testid="refusal-action">
          Add credits on the Billing page
        </Link>
      );
    case "workspace_pool":
      return manager ? (
        <Link to={WORKSPACE_SETTINGS_PATH} className={linkClass} data-testid="refusal-action">
          Add credits to the team pool
        </Link>
      ) : (
        <p className="mt-1.5 font-semibold" data-testid="refusal-action">
          Ask the workspace owner to add credits to the pool.
        </p>
      );
    case "member_cap":
      return manager ? (
        <Link to={WORKSPACE_SETTINGS_PATH} className={linkClass} data-testid="refusal-action">
          Change the caps in the workspace settings
        </Link>
      ) : (
        <p className="mt-1.5 font-semibold" data-testid="refusal-action">
          Ask the workspace owner to raise your monthly cap.
        </p>
      );
    case "session_budget":
      return (
        <RaiseBudget
          session={session}
          required={refusal.required ?? undefined}
          onRaised={onSessionChange}
        />
      );
    case "personal_limit":
      return (
        <Link to={SPENDING_LIMIT_SETTINGS_PATH} className={linkClass} data-testid="refusal-action">
          Raise your spending limit in Settings
        </Link>
      );
  }
}
