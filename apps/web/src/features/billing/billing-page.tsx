import { SERVER_EVENTS } from "@cohort/contracts";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { useAuth } from "../../auth/use-auth";
import { Card } from "../../components/card";
import { LoadFailed } from "../../components/load-failed";
import { PageSection } from "../../components/page-section";
import { PageSpinner, Spinner } from "../../components/spinner";
import { fetchUsageStats } from "../../lib/api/usage-stats";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { useRealtimeEvent } from "../../lib/realtime/use-realtime";
import { BILLING_QUERY_KEY, billingKeys, fetchBillingSummary, fetchUserUsage } from "./billing-api";
import { BillingOverview, UsageAtAGlance } from "./billing-overview";
import { CreditPacks } from "./credit-packs";
import { LedgerTable } from "./ledger-table";
import { PlanPicker } from "./plan-picker";
import { UsageCharts } from "./usage-charts";
import { useCheckoutReturn } from "./use-checkout-return";

const USAGE_RANGES = [7, 30, 90] as const;
type UsageRange = (typeof USAGE_RANGES)[number];

/**
 * Whenever the shell learns of a new balance (a refresh on focus, a checkout return, a
 * realtime push), the billing figures and the ledger are fetched again too.
 */
function useBillingFollowsBalance(credits: number | undefined): void {
  const queryClient = useQueryClient();
  const seen = useRef(credits);
  useEffect(() => {
    if (seen.current === credits) return;
    seen.current = credits;
    void queryClient.invalidateQueries({ queryKey: BILLING_QUERY_KEY });
  }, [credits, queryClient]);
  // A hold opening or closing changes what is available, not the balance.
  useRealtimeEvent(SERVER_EVENTS.creditsChanged, (change) => {
    if (change.delta === 0) void queryClient.invalidateQueries({ queryKey: billingKeys.summary });
  });
}

function UsageSection() {
  const [days, setDays] = useState<UsageRange>(30);
  const selectId = useId();
  const stats = useQuery({
    queryKey: billingKeys.usageStats,
    queryFn: ({ signal }) => fetchUsageStats(signal),
  });
  const usage = useQuery({
    queryKey: billingKeys.usage(days),
    queryFn: ({ signal }) => fetchUserUsage(days, signal),
    placeholderData: keepPreviousData,
  });
  return (
    <PageSection
      className="gap-4"
      title="Usage"
      lead="Every model call on hosted keys, in credits."
      testId="billing-usage"
      action={
        <div className="flex items-center gap-2 text-sm">
          <label htmlFor={selectId} className="text-ink-600">
            Charts cover
          </label>
          <select
            id={selectId}
            value={days}
            onChange={(event) => setDays(Number(event.target.value) as UsageRange)}
            className="rounded-lg border border-ink-300 bg-white px-2 py-1.5 text-sm text-ink-900"
          >
            {USAGE_RANGES.map((range) => (
              <option key={range} value={range}>
                Last {range} days
              </option>
            ))}
          </select>
        </div>
      }
    >
      <Card className="grid gap-6 p-5 sm:p-6">
        <div className="grid gap-3">
          <h3 className="text-sm font-semibold text-ink-900">All time</h3>
          {stats.data ? (
            <UsageAtAGlance stats={stats.data} />
          ) : (
            <Spinner label="Loading usage totals…" />
          )}
        </div>
        <div className="border-t border-ink-100 pt-6">
          {usage.data ? (
            <UsageCharts usage={usage.data} />
          ) : usage.isError ? (
            <LoadFailed message="The usage charts could not be loaded." retry={usage.refetch} />
          ) : (
            <Spinner label="Loading usage charts…" />
          )}
        </div>
      </Card>
    </PageSection>
  );
}

/** /billing: plan, balance, plans and packs through checkout, usage and the credit ledger. */
export function BillingPage() {
  useDocumentMeta({ title: "Billing" });
  const { user } = useAuth();
  useCheckoutReturn();
  useBillingFollowsBalance(user?.credits_remaining);
  const summary = useQuery({
    queryKey: billingKeys.summary,
    queryFn: ({ signal }) => fetchBillingSummary(signal),
    // Payments finish on another page or tab; coming back should show their result.
    refetchOnWindowFocus: true,
  });

  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 py-8 sm:px-6 lg:px-10 lg:py-10">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-ink-950 sm:text-3xl">Billing</h1>
        <p className="mt-1 text-sm text-ink-600">
          Your plan, your credits and where they went. Compare plans on the{" "}
          <Link to="/pricing" className="font-medium text-brand-700 hover:underline">
            pricing page
          </Link>
          .
        </p>
      </div>

      {summary.data ? (
        <>
          <BillingOverview summary={summary.data} />
          <PageSection
            className="gap-4"
            title="Plans"
            lead="Each plan adds its credits every billing period. Change or cancel any time."
            testId="billing-plans"
          >
            <PlanPicker summary={summary.data} />
          </PageSection>
          <PageSection
            className="gap-4"
            title="Credit packs"
            lead="One-off credits on top of your plan, bought whenever you need them."
            testId="billing-packs"
          >
            <CreditPacks packs={summary.data.packs} />
          </PageSection>
        </>
      ) : summary.isError ? (
        <LoadFailed
          message="Your billing details could not be loaded."
          retry={summary.refetch}
          card
        />
      ) : (
        <PageSpinner label="Loading billing…" />
      )}

      <UsageSection />

      <PageSection
        className="gap-4"
        title="Credit history"
        lead="Every grant, purchase and charge, newest first."
        testId="billing-ledger"
      >
        <LedgerTable />
      </PageSection>
    </div>
  );
}
