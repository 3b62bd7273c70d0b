import type { TTelemetryPreferences } from "@cohort/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { SectionCard } from "../../components/section-header";
import { toast } from "../../components/toast/toast-store";
import { api } from "../../lib/api/api";
import { analytics, browserDeclinesTracking } from "../../lib/telemetry/telemetry";

const PREFERENCES_QUERY_KEY = ["telemetry", "preferences"] as const;

/**
 * The per-user analytics opt-out (the data model analytics; decision 021): stored on the server, so it
 * follows the account to every browser, and mirrored in this browser so it applies at once.
 */
export function AnalyticsPreference() {
  const queryClient = useQueryClient();
  const checkboxId = useId();
  const [pending, setPending] = useState(false);
  // The box follows the click at once (and goes back if saving fails).
  const [choice, setChoice] = useState<boolean | null>(null);
  const { data } = useQuery({
    queryKey: PREFERENCES_QUERY_KEY,
    queryFn: ({ signal }) => api.get<TTelemetryPreferences>("/telemetry/preferences", { signal }),
  });
  const optedOut = choice ?? data?.analyticsOptOut ?? false;
  const declines = browserDeclinesTracking();

  useEffect(() => {
    if (data) analytics.setOptOut(data.analyticsOptOut);
  }, [data]);

  const toggle = async (next: boolean) => {
    setPending(true);
    setChoice(next);
    try {
      const saved = await api.put<TTelemetryPreferences>("/telemetry/preferences", {
        analyticsOptOut: next,
      });
      analytics.setOptOut(saved.analyticsOptOut);
      queryClient.setQueryData(PREFERENCES_QUERY_KEY, saved);
      toast({
        title: saved.analyticsOptOut ? "Analytics turned off" : "Analytics turned on",
        variant: "success",
      });
    } catch {
      setChoice(null);
      toast({ title: "Could not save your choice. Please try again.", variant: "error" });
    } finally {
      setPending(false);
    }
  };

  return (
    <SectionCard title="Privacy">
      <div className="mt-3 flex items-start gap-3">
        <input
          id={checkboxId}
          type="checkbox"
          className="mt-1 h-4 w-4"
          checked={!optedOut}
          disabled={pending || data === undefined}
          onChange={(event) => void toggle(!event.target.checked)}
        />
        <label htmlFor={checkboxId} className="text-sm text-ink-700">
          <span className="font-semibold text-ink-950">Share usage analytics</span>
          <span className="mt-1 block">
            Pages you visit, feature events and page speed, to improve Cohort. Error reports needed
            for support are sent either way. See the{" "}
            <a className="underline" href="/privacy">
              privacy policy
            </a>
            .
          </span>
          {declines ? (
            <span className="mt-1 block" role="status">
              Your browser asks sites not to track you (Do Not Track or Global Privacy Control), so
              no analytics are sent from it whatever this setting says.
            </span>
          ) : null}
        </label>
      </div>
    </SectionCard>
  );
}
