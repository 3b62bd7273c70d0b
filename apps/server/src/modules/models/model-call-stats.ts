import type { TAdminModelStats } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { CallSettledEvent } from "./gateway";

/**
 * Calls, failures and latency per model, from the calls the gateway makes anyway (its
 * `onCallSettled`). In memory per instance, like provider health: it describes what this
 * instance has seen since it started, for the admin overview.
 */
export interface ModelCallStats {
  record(event: CallSettledEvent): void;
  read(): TAdminModelStats[];
}

declare module "fastify" {
  interface FastifyInstance {
    modelCallStats: ModelCallStats;
  }
}

const WINDOW = 200;

interface ModelState {
  calls: number;
  errors: number;
  latencies: number[];
  lastError: TAdminModelStats["last_error"];
}

function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? null;
}

export function createModelCallStats(now: () => Date = () => new Date()): ModelCallStats {
  const states = new Map<string, ModelState>();
  const stateOf = (modelId: string) => {
    let state = states.get(modelId);
    if (!state) {
      state = { calls: 0, errors: 0, latencies: [], lastError: null };
      states.set(modelId, state);
    }
    return state;
  };
  return {
    record(event) {
      const state = stateOf(event.input.modelId);
      state.calls += 1;
      if (event.ok) {
        state.latencies.push(event.result.latencyMs);
        if (state.latencies.length > WINDOW) state.latencies.shift();
      } else {
        state.errors += 1;
        state.lastError = {
          code: event.error.code,
          message: event.error.message,
          at: now().toISOString(),
        };
      }
    },
    read() {
      return [...states]
        .map(([modelId, state]) => ({
          model_id: modelId,
          calls: state.calls,
          errors: state.errors,
          latency_ms_p50: percentile(state.latencies, 50),
          latency_ms_p95: percentile(state.latencies, 95),
          last_error: state.lastError,
        }))
        .sort((a, b) => b.calls - a.calls || a.model_id.localeCompare(b.model_id));
    },
  };
}

/** Decorates `app.modelCallStats`; returns what the gateway calls after each model call. */
export function registerModelCallStats(app: FastifyInstance): ModelCallStats["record"] {
  const stats = createModelCallStats();
  app.decorate("modelCallStats", stats);
  return (event) => stats.record(event);
}
