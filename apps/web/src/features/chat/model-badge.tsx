import { PROVIDER_NAMES, SIMULATED_BADGE, type TProviderId } from "@cohort/contracts";
import { cn } from "../../components/cn";

function providerName(provider: string | null): string | null {
  if (!provider) return null;
  return PROVIDER_NAMES[provider as TProviderId | "simulator"] ?? provider;
}

/**
 * A model's name with its provider, and the "Simulated" badge whenever the built-in
 * simulator answers for it (shown wherever a model name is shown).
 */
export function ModelBadge({
  name,
  provider,
  simulated,
  className,
  compact = false,
}: {
  name: string;
  provider?: string | null;
  simulated: boolean | null | undefined;
  className?: string;
  compact?: boolean;
}) {
  // A simulated model has no provider behind it: the badge says so instead.
  const via = compact || simulated ? null : providerName(provider ?? null);
  return (
    <span className={cn("inline-flex items-center gap-1.5 text-xs whitespace-nowrap", className)}>
      <span className="inline-flex items-center gap-1 rounded-md bg-ink-100 px-1.5 py-0.5 font-semibold text-ink-800 ring-1 ring-ink-200 ring-inset">
        {name}
        {via ? <span className="font-normal text-ink-500">· {via}</span> : null}
      </span>
      {simulated ? <SimulatedBadge /> : null}
    </span>
  );
}

export function SimulatedBadge() {
  return (
    <span
      className="inline-flex items-center rounded-md bg-amber-50 px-1.5 py-0.5 font-semibold text-amber-900 ring-1 ring-amber-200 ring-inset"
      title="No provider key is configured: the built-in simulator answers for this model."
      data-testid="simulated-badge"
    >
      {SIMULATED_BADGE}
    </span>
  );
}
