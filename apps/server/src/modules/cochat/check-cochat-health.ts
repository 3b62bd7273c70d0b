import type { TCochatHealthResponse } from "@cohort/contracts";
import { checkModelHealth } from "../models/check-model-health";
import type { ModelGateway } from "../models/gateway";
import { listCochatModels } from "../models/list-models";

/** CoChat's models and the state of the providers behind them (no probe calls). */
export function checkCochatHealth(
  gateway: ModelGateway,
  messagesPerHour: number,
): TCochatHealthResponse {
  const models = listCochatModels(gateway);
  const backing = new Set<string>(models.flatMap((m) => m.providers));
  const anySimulated = models.some((m) => m.simulated);
  const providers = checkModelHealth(gateway).providers.filter((p) =>
    p.provider === "simulator" ? anySimulated : backing.has(p.provider),
  );
  const degraded = providers.some((p) => p.configured && p.reachable === false);
  return {
    status: degraded ? "degraded" : "ok",
    default_model: models[0]?.id ?? null,
    models: models.map((m) => ({
      id: m.id,
      name: m.name,
      provider: m.simulated ? "simulator" : m.provider,
      simulated: m.simulated,
    })),
    providers,
    messages_per_hour: messagesPerHour,
  };
}
