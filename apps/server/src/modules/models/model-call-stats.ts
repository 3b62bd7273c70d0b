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
  /**
   * The median tokens of this instance's recent successful calls of a model for a role
   * (null role: the coordinator's plan and answer), for cost estimates (decision 053); null
   * before there are any.
   */
  medianUsage(
    modelId: string,
    role: string | null,
  ): { inputTokens: number; outputTokens: number } | null;
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
  const usages = new Map<string, { input: number[]; output: number[] }>();
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
        const key = `${event.input.modelId}\u0000${event.input.role ?? ""}`;
        const usage = usages.get(key) ?? { input: [], output: [] };
        usages.set(key, usage);
        usage.input.push(event.result.usage.inputTokens);
        usage.output.push(event.result.usage.outputTokens);
        if (usage.input.length > WINDOW) usage.input.shift();
        if (usage.output.length > WINDOW) usage.output.shift();
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
    medianUsage(modelId, role) {
      const usage = usages.get(`${modelId}\u0000${role ?? ""}`);
      if (!usage || usage.input.length === 0) return null;
      return {
        inputTokens: percentile(usage.input, 50) ?? 0,
        outputTokens: percentile(usage.output, 50) ?? 0,
      };
    },
  };
}

/** Decorates `app.modelCallStats`; returns what the gateway calls after each model call. */
export function registerModelCallStats(app: FastifyInstance): ModelCallStats["record"] {
  const stats = createModelCallStats();
  app.decorate("modelCallStats", stats);
  return (event) => stats.record(event);
}
