import type { TCreditPackId, TCreditPackOffer } from "@cohort/contracts";
import { useId } from "react";
import { Button } from "../../components/button";
import { Card } from "../../components/card";
import { formatCredits } from "../../lib/format/numbers";
import { purchaseCredits } from "./billing-api";
import { formatPrice } from "./billing-format";
import { type RedirectAction, useRedirectAction } from "./use-redirect-action";

function PackCard({
  pack,
  purchase,
}: {
  pack: TCreditPackOffer;
  purchase: RedirectAction<TCreditPackId>;
}) {
  const titleId = useId();
  const running = purchase.isRunning(pack.id);
  const perHundred = (pack.price_usd / pack.credits) * 100;
  return (
    <Card
      className="flex flex-col gap-3 p-5"
      role="group"
      aria-labelledby={titleId}
      data-testid={`credit-pack-${pack.id}`}
    >
      <h3 id={titleId} className="text-base font-semibold text-ink-950">
        {pack.name}
      </h3>
      <p className="flex items-baseline justify-between gap-2">
        <span className="text-2xl font-bold tracking-tight text-ink-950">
          {formatPrice(pack.price_usd)}
        </span>
        <span className="text-xs text-ink-500">{formatPrice(perHundred)} per 100 credits</span>
      </p>
      <Button
        variant="secondary"
        className="mt-auto w-full"
        aria-label={`Buy ${formatCredits(pack.credits)} for ${formatPrice(pack.price_usd)}`}
        disabled={purchase.busy}
        aria-busy={running || undefined}
        onClick={() => purchase.run(pack.id)}
      >
        {running ? "Redirecting to checkout…" : "Buy"}
      </Button>
    </Card>
  );
}

/** One-off credit packs: Buy → checkout → back with the credits added. */
export function CreditPacks({ packs }: { packs: readonly TCreditPackOffer[] }) {
  const purchase = useRedirectAction(
    (packageId: TCreditPackId) =>
      purchaseCredits(packageId).then((response) => response.checkout_url),
    "Could not start checkout",
  );
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      {packs.map((pack) => (
        <PackCard key={pack.id} pack={pack} purchase={purchase} />
      ))}
    </div>
  );
}
