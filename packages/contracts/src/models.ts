/** Spec §1: the native Co* models, each with its purpose. The Models issue extends this. */
export const NATIVE_MODELS = [
  { id: "coreason", name: "CoReason", purpose: "Logical reasoning" },
  { id: "codepth", name: "CoDepth", purpose: "Deep analysis" },
  { id: "coquick", name: "CoQuick", purpose: "Fast responses" },
  { id: "cologic", name: "CoLogic", purpose: "Structured thinking" },
  { id: "cochat", name: "CoChat", purpose: "Natural conversation" },
  { id: "covision", name: "CoVision", purpose: "Image generation" },
] as const;

/** Spec §1: the agent roles a coordinator hands work to. */
export const AGENT_ROLES = ["strategist", "coder", "designer", "critic"] as const;
export type TAgentRole = (typeof AGENT_ROLES)[number];
export const AGENT_ROLE_NAMES: Record<TAgentRole, string> = {
  strategist: "Strategist",
  coder: "Coder",
  designer: "Designer",
  critic: "Critic",
};
