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
import { CreditBalance, CreditBalanceChip } from "../shell/credit-balance";
import { useCurrentWorkspace } from "./current-workspace";
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

function teamIn(workspace: TWorkspace | null): TWorkspace | null {
  return workspace?.kind === "team" ? workspace : null;
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

/** The shell's credit widget: the personal balance, or in a team the pool and my cap. */
export function ShellCreditBalance({
  user,
  pendingWelcome,
}: {
  user: TUserProfile;
  pendingWelcome: number;
}) {
  const team = teamIn(useCurrentWorkspace().workspace);
  const pool = useWorkspaceCredits(team?.id ?? null);
  if (!team) {
    return <CreditBalance credits={user.credits_remaining} pendingWelcome={pendingWelcome} />;
  }
  if (!pool.data) return null;
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

export function ShellCreditChip({ user }: { user: TUserProfile }) {
  const team = teamIn(useCurrentWorkspace().workspace);
  const pool = useWorkspaceCredits(team?.id ?? null);
  if (!team) return <CreditBalanceChip credits={user.credits_remaining} />;
  if (!pool.data) return null;
  return (
    <CreditBalanceChip
      credits={pool.data.balance}
      label={TEAM_POOL_LABEL}
      to={WORKSPACE_SETTINGS_PATH}
    />
  );
}
