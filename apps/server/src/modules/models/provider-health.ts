import type { TModelHealth, TProviderId } from "@cohort/contracts";

/**
 * Per-provider health from the calls the gateway makes anyway (no probe calls: they would cost
 * money and quota). In memory per instance: it describes what this instance has seen.
 */
type HealthKey = TProviderId | "simulator";

const WINDOW = 50;

interface ProviderState {
  reachable: boolean | null;
  lastSuccessAt: string | null;
  lastError: TModelHealth["last_error"];
  latencies: number[];
  ttfts: number[];
  userKeyCalls: number;
  userKeyFailures: number;
}

export interface HealthTracker {
  success(provider: HealthKey, latencyMs: number, ttftMs: number | null): void;
  failure(provider: HealthKey, code: string, message: string): void;
  /** A call on a user's own key (decision 056): counted apart, never said whose. */
  userKeyCall(provider: HealthKey, ok: boolean): void;
  read(
    provider: HealthKey,
  ): Pick<
    TModelHealth,
    | "reachable"
    | "last_success_at"
    | "last_error"
    | "latency_ms_p50"
    | "ttft_ms_p50"
    | "samples"
    | "user_key_calls"
    | "user_key_failures"
  >;
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const value =
    sorted.length % 2 === 1
      ? (sorted[mid] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return Math.round(value * 10) / 10;
}

function push(window: number[], value: number) {
  window.push(value);
  if (window.length > WINDOW) window.shift();
}

export function createHealthTracker(now: () => Date = () => new Date()): HealthTracker {
  const states = new Map<HealthKey, ProviderState>();
  const stateOf = (provider: HealthKey) => {
    let state = states.get(provider);
    if (!state) {
      state = {
        reachable: null,
        lastSuccessAt: null,
        lastError: null,
        latencies: [],
        ttfts: [],
        userKeyCalls: 0,
        userKeyFailures: 0,
      };
      states.set(provider, state);
    }
    return state;
  };
  return {
    success(provider, latencyMs, ttftMs) {
      const state = stateOf(provider);
      state.reachable = true;
      state.lastSuccessAt = now().toISOString();
      push(state.latencies, latencyMs);
      if (ttftMs !== null) push(state.ttfts, ttftMs);
    },
    failure(provider, code, message) {
      const state = stateOf(provider);
      state.reachable = false;
      state.lastError = { code, message, at: now().toISOString() };
    },
    userKeyCall(provider, ok) {
      const state = stateOf(provider);
      state.userKeyCalls += 1;
      if (!ok) state.userKeyFailures += 1;
    },
    read(provider) {
      const state = states.get(provider);
      return {
        reachable: state?.reachable ?? null,
        last_success_at: state?.lastSuccessAt ?? null,
        last_error: state?.lastError ?? null,
        latency_ms_p50: median(state?.latencies ?? []),
        ttft_ms_p50: median(state?.ttfts ?? []),
        samples: state?.latencies.length ?? 0,
        user_key_calls: state?.userKeyCalls ?? 0,
        user_key_failures: state?.userKeyFailures ?? 0,
      };
    },
  };
}
