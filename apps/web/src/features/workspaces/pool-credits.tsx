import type { TCreditPackId, TPurchaseCreditsRequest, TWorkspace } from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import { Button } from "../../components/button";
import { api } from "../../lib/api/api";
import { formatCreditAmount, formatCredits, formatUsd } from "../../lib/format/numbers";
import { billingKeys, fetchBillingSummary } from "../billing/billing-api";
import { useRedirectAction } from "../billing/use-redirect-action";
import { TEAM_POOL_LABEL } from "./team-credits";
import { useWorkspaceCredits } from "./workspaces-api";

/** The same pack checkout as Billing, paid into the team's pool (owner/admin). */
function purchaseForWorkspace(workspaceId: string, packageId: TCreditPackId): Promise<string> {
  const body: TPurchaseCreditsRequest = { packageId, workspace_id: workspaceId };
  return api
    .post<{ checkout_url: string }>("/billing/purchase-credits", body)
    .then((response) => response.checkout_url);
}

/** The pool's balance and "Buy credits for this workspace": the packs of the Billing page. */
export function PoolCredits({ workspace }: { workspace: TWorkspace }) {
  const pool = useWorkspaceCredits(workspace.id);
  const summary = useQuery({
    queryKey: billingKeys.summary,
    queryFn: ({ signal }) => fetchBillingSummary(signal),
  });
  const purchase = useRedirectAction(
    (packageId: TCreditPackId) => purchaseForWorkspace(workspace.id, packageId),
    "Could not start checkout",
  );
  return (
    <section aria-labelledby="workspace-pool-title" className="grid gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="workspace-pool-title" className="text-base font-semibold text-ink-950">
          {TEAM_POOL_LABEL}
        </h2>
        <p className="text-sm text-ink-700" data-testid="workspace-pool-balance">
          {pool.data ? (
            <>
              <strong className="text-lg font-bold text-ink-950 tabular-nums">
                {formatCreditAmount(pool.data.balance)}
              </strong>{" "}
              credits
              {pool.data.available < pool.data.balance
                ? ` (${formatCreditAmount(pool.data.available)} available)`
                : ""}
            </>
          ) : (
            "…"
          )}
        </p>
      </div>
      <p className="text-xs text-ink-500">
        Runs in this workspace are paid from its pool. Buy credits for this workspace:
      </p>
      <div className="flex flex-wrap gap-2">
        {(summary.data?.packs ?? []).map((pack) => (
          <Button
            key={pack.id}
            variant="outline"
            size="sm"
            disabled={purchase.busy}
            aria-busy={purchase.isRunning(pack.id) || undefined}
            aria-label={`Buy ${formatCredits(pack.credits)} for this workspace for ${formatUsd(pack.price_usd)}`}
            onClick={() => purchase.run(pack.id)}
          >
            {formatCredits(pack.credits)} · {formatUsd(pack.price_usd)}
          </Button>
        ))}
      </div>
    </section>
  );
}
