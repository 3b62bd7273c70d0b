import {
  roleAtLeast,
  SERVER_EVENTS,
  type TCreditsChanged,
  type TUserProfile,
  type TWorkspace,
  type TWorkspaceCredits,
} from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { formatCreditAmount } from "../../lib/format/numbers";
import { useRealtimeEvent } from "../../lib/realtime/use-realtime";
import { CreditBalance, CreditBalanceChip } from "../credits/credit-balance";
import { useChargedWorkspace } from "./charged-workspace";
import { useWorkspaceCredits, workspaceKeys } from "./workspaces-api";

/** Where the team's pool is managed (the team screen's Credits and caps tab). */
export const WORKSPACE_SETTINGS_PATH = "/team/credits";
export const TEAM_POOL_LABEL = "Team pool";

/** A team account's `credits.changed` names its workspace; a personal one leaves it out. */
export function teamOfCreditChange(
  change: TCreditsChanged,
  userId: string | undefined,
): string | null {
  const workspaceId = change.workspace_id ?? null;
  return workspaceId !== null && workspaceId !== userId ? workspaceId : null;
}

/** "Your cap: 12 of 50 credits used this month." */
export function capNote(credits: TWorkspaceCredits): string | null {
  if (credits.my_monthly_cap === null) return null;
  return `Your cap: ${formatCreditAmount(credits.my_spent_this_month)} of ${formatCreditAmount(credits.my_monthly_cap)} credits used this month.`;
}

/**
 * Pushed pool changes (a member's run, a purchase for the team) update the pool at once and
 * the member's own figures on the next read.
 */
export function useLiveTeamCredits(userId: string | undefined): void {
  const queryClient = useQueryClient();
  useRealtimeEvent(SERVER_EVENTS.creditsChanged, (change) => {
    const workspaceId = teamOfCreditChange(change, userId);
    if (workspaceId === null) return;
    queryClient.setQueryData<TWorkspaceCredits>(workspaceKeys.credits(workspaceId), (old) =>
      old ? { ...old, balance: change.balance, available: change.available } : old,
    );
    void queryClient.invalidateQueries({ queryKey: workspaceKeys.credits(workspaceId) });
    void queryClient.invalidateQueries({ queryKey: workspaceKeys.usage(workspaceId) });
  });
}

/**
 * The wallet that pays for what is on screen (decision 054) and its balance: the team's pool
 * (null until read) or the personal balance. The widget, the chip and the threshold toasts
 * all read this one.
 */
export function useShownWallet(user: TUserProfile | null): {
  pending: boolean;
  team: TWorkspace | null;
  pool: ReturnType<typeof useWorkspaceCredits>;
  /** The paying wallet's id and balance; null while it or the pool is being read. */
  balance: { walletId: string; credits: number } | null;
} {
  const { team, pending } = useChargedWorkspace();
  const pool = useWorkspaceCredits(team?.id ?? null);
  let balance: { walletId: string; credits: number } | null = null;
  if (pending) {
    // Nothing until the paying wallet is known.
  } else if (team) {
    if (pool.data) balance = { walletId: team.id, credits: pool.data.balance };
  } else if (user) {
    balance = { walletId: user.id, credits: user.credits_remaining };
  }
  return { pending, team, pool, balance };
}

/**
 * The shell's credit widget: the personal balance, or in a team the pool and my cap; `chip`,
 * the narrow header's chip instead.
 */
export function ShellCredits({
  user,
  pendingWelcome,
  chip = false,
}: {
  user: TUserProfile;
  pendingWelcome: number;
  chip?: boolean;
}) {
  const { pending, team, pool } = useShownWallet(user);
  if (pending) return null;
  if (!team) {
    return chip ? (
      <CreditBalanceChip credits={user.credits_remaining} pendingWelcome={pendingWelcome} />
    ) : (
      <CreditBalance credits={user.credits_remaining} pendingWelcome={pendingWelcome} />
    );
  }
  if (!pool.data) return null;
  if (chip) {
    return (
      <CreditBalanceChip
        credits={pool.data.balance}
        label={TEAM_POOL_LABEL}
        to={WORKSPACE_SETTINGS_PATH}
      />
    );
  }
  return (
    <CreditBalance
      credits={pool.data.balance}
      label={TEAM_POOL_LABEL}
      addCreditsTo={roleAtLeast(team.role, "admin") ? WORKSPACE_SETTINGS_PATH : null}
      reload={() => pool.refetch({ throwOnError: true })}
      note={capNote(pool.data)}
    />
  );
}
