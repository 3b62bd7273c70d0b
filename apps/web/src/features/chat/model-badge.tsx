import {
  MODEL_SOURCE_LABELS,
  PROVIDER_NAMES,
  SIMULATED_BADGE,
  type TModelSource,
  type TProviderId,
} from "@cohort/contracts";
import { cn } from "../../components/cn";

function providerName(provider: string | null): string | null {
  if (!provider) return null;
  return PROVIDER_NAMES[provider as TProviderId | "simulator"] ?? provider;
}

/**
 * A model's name with its provider, and what answers it (decision 029): "Your key", "Hosted
 * key", "Local server", or the "Simulated" badge whenever the built-in simulator answers for it
 * (shown wherever a model name is shown). Without a `source` (a past run's step), only the
 * simulator is marked.
 */
export function ModelBadge({
  name,
  provider,
  simulated,
  source,
  className,
  compact = false,
}: {
  name: string;
  provider?: string | null;
  simulated: boolean | null | undefined;
  source?: TModelSource | null;
  className?: string;
  compact?: boolean;
}) {
  const isSimulated = source ? source === "simulator" : Boolean(simulated);
  // A simulated model has no provider behind it: the badge says so instead.
  const via = compact || isSimulated ? null : providerName(provider ?? null);
  return (
    <span className={cn("inline-flex items-center gap-1.5 text-xs whitespace-nowrap", className)}>
      <span className="inline-flex items-center gap-1 rounded-md bg-ink-100 px-1.5 py-0.5 font-semibold text-ink-800 ring-1 ring-ink-200 ring-inset">
        {name}
        {via ? <span className="font-normal text-ink-500">· {via}</span> : null}
      </span>
      {isSimulated ? (
        <SimulatedBadge />
      ) : source && source !== "simulator" ? (
        <SourceBadge source={source} provider={providerName(provider ?? null)} />
      ) : null}
    </span>
  );
}

const SOURCE_STYLES: Record<Exclude<TModelSource, "simulator">, string> = {
  user_key: "bg-emerald-50 text-emerald-900 ring-emerald-200",
  hosted_key: "bg-brand-50 text-brand-900 ring-brand-200",
  local_server: "bg-sky-50 text-sky-900 ring-sky-200",
};

function sourceTitle(source: Exclude<TModelSource, "simulator">, provider: string | null) {
  const at = provider ?? "the provider";
  switch (source) {
    case "user_key":
      return `Runs on your own ${at} key from Settings, at no credit cost.`;
    case "hosted_key":
      return `Runs on Cohort's ${at} key, paid with credits.`;
    case "local_server":
      return "Runs on this installation's own model server.";
  }
}

function SourceBadge({
  source,
  provider,
}: {
  source: Exclude<TModelSource, "simulator">;
  provider: string | null;
}) {
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-md px-1.5 py-0.5 font-semibold ring-1 ring-inset",
        SOURCE_STYLES[source],
      )}
      title={sourceTitle(source, provider)}
      data-testid="model-source-badge"
    >
      {MODEL_SOURCE_LABELS[source]}
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
