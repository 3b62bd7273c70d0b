import {
  PROVIDER_IDS,
  PROVIDER_NAMES,
  type TModelHealth,
  type TModelsHealthResponse,
} from "@cohort/contracts";
import type { ModelGateway } from "./gateway";

/** Per provider: configured or simulated, and how its recent calls went (no probe calls). */
export function checkModelHealth(gateway: ModelGateway): TModelsHealthResponse {
  const providers: TModelHealth[] = PROVIDER_IDS.map((provider) => {
    const configured = gateway.providers.isHosted(provider);
    return {
      provider,
      name: PROVIDER_NAMES[provider],
      configured,
      mode: configured ? "real" : "simulated",
      ...gateway.health.read(provider),
    };
  });
  providers.push({
    provider: "simulator",
    name: PROVIDER_NAMES.simulator,
    configured: true,
    mode: "simulated",
    ...gateway.health.read("simulator"),
  });
  const degraded = providers.some((p) => p.configured && p.reachable === false);
  return {
    status: degraded ? "degraded" : "ok",
    all_simulated: !PROVIDER_IDS.some((p) => gateway.providers.isHosted(p)),
    providers,
  };
}
