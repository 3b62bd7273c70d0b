import {
  AGENT_ROLES,
  creditsOf,
  type Hundredths,
  hundredths,
  hundredthsOf,
  makesImages,
  roleTools,
  type TAgentPreferences,
  type TAgentRole,
  type TCostEstimate,
  type TCostEstimateCall,
  type TCostEstimateQuery,
  type TSessionToolSettings,
} from "@cohort/contracts";
import type { Principal } from "../../platform/auth";
import { type Room, spendingRooms, tightest } from "../credits/spending-room";
import type { ModelCallStats } from "../models/model-call-stats";
import type { UserProviderKeys } from "../models/providers";
import { findSessionFor } from "../sessions/find-session";
import { listMessages } from "../sessions/list-messages";
import { payerFor } from "../workspaces/workspace-access";
import { firstHold, priceOf } from "./hold-slices";
import { PLAN_MAX_OUTPUT_TOKENS } from "./prompts";
import type { EngineDeps } from "./run-context";
import { getRun } from "./run-store";

/**
 * Tokens a call is assumed to take when this instance has seen no call of its model for its
 * role yet (decision 053): the prompts the engine adds around the user's message, and a
 * short and a long answer.
 */
const PROMPT_TOKENS = { plan: 700, agent: 1000, critic: 2500, synthesis: 3000 } as const;
const CATALOGUE_OUTPUT = {
  plan: { low: 250, high: 600 },
  agent: { low: 300, high: 1500 },
  critic: { low: 250, high: 800 },
  synthesis: { low: 400, high: 1500 },
} as const;

type Kind = keyof typeof PROMPT_TOKENS;

/**
 * The least prompt a call of the smallest run carries beside the user's message: the
 * engine's own instructions, and a minimal draft for the answer. Kept low on purpose: the
 * check before planning must never refuse a run that could be paid (decision 053).
 */
const MIN_PROMPT_TOKENS = 150;

interface CallCost {
  kind: Kind | "image";
  role: TAgentRole | null;
  model: string;
  modelName: string;
  simulated: boolean;
  billable: boolean;
  low: Hundredths;
  high: Hundredths;
  /** The least its first hold may be (its input and a minimal answer). */
  minimum: Hundredths;
  basis: "recent" | "catalogue";
}

export interface EstimateDeps {
  engine: EngineDeps;
  /** Recent calls' medians; null: the catalogue's assumptions only (the run's own check). */
  stats: ModelCallStats | null;
}

/** The agents a run of this session may use: the chosen ones (manual) or all of them. */
function rolesOf(manual: boolean, preferences: TAgentPreferences): TAgentRole[] {
  return AGENT_ROLES.filter((role) => !manual || preferences[role]?.enabled === true);
}

function modelOf(deps: EngineDeps, preferences: TAgentPreferences, role: TAgentRole): string {
  return (
    preferences[role]?.model ?? deps.models.catalogue.getRole(role)?.defaultModel ?? "coreason"
  );
}

function costOf(
  { engine, stats }: EstimateDeps,
  userKeys: UserProviderKeys,
  kind: Kind,
  role: TAgentRole | null,
  modelId: string,
  messageTokens: number,
): CallCost | null {
  const resolved = engine.models.resolve(modelId, userKeys);
  if (!resolved) return null;
  const model = resolved.model;
  const inputTokens = messageTokens + PROMPT_TOKENS[kind];
  const maxOutput = kind === "plan" ? PLAN_MAX_OUTPUT_TOKENS : model.maxOutputTokens;
  const recent = stats?.medianUsage(modelId, role) ?? null;
  const low = recent
    ? priceOf(model, recent.inputTokens, recent.outputTokens)
    : priceOf(model, inputTokens, CATALOGUE_OUTPUT[kind].low);
  const high = recent
    ? low
    : priceOf(model, inputTokens, Math.min(maxOutput, CATALOGUE_OUTPUT[kind].high));
  return {
    kind,
    role,
    model: modelId,
    modelName: model.name,
    simulated: resolved.simulated,
    billable: resolved.billable,
    low,
    high,
    minimum: firstHold(model, messageTokens + MIN_PROMPT_TOKENS, maxOutput).minimum,
    basis: recent ? "recent" : "catalogue",
  };
}

export interface RunCosts {
  plan: CallCost | null;
  agents: CallCost[];
  critic: CallCost | null;
  synthesis: CallCost | null;
  /**
   * A picture the Designer may draw through generate_image (decision 068): when the Designer
   * takes part on a text model and the session gives it the tool. It counts in the high end
   * only (whether it draws depends on the request); a Designer on an image model already
   * carries its picture in its own call's price (decision 064).
   */
  image: CallCost | null;
}

/** The image model generate_image draws with (decision 064). */
const IMAGE_TOOL_MODEL = "covision";

function imageCost(
  deps: EstimateDeps,
  userKeys: UserProviderKeys,
  roles: readonly TAgentRole[],
  designerModel: string,
  tools: TSessionToolSettings | null | undefined,
): CallCost | null {
  if (!roles.includes("designer")) return null;
  if (!roleTools(tools, "designer").builtins.includes("generate_image")) return null;
  const designer = deps.engine.models.catalogue.getModel(designerModel);
  if (!designer || makesImages(designer)) return null;
  const resolved = deps.engine.models.resolve(IMAGE_TOOL_MODEL, userKeys);
  if (!resolved || !makesImages(resolved.model)) return null;
  const price = priceOf(resolved.model, 0, 0);
  return {
    kind: "image",
    role: "designer",
    model: IMAGE_TOOL_MODEL,
    modelName: resolved.model.name,
    simulated: resolved.simulated,
    billable: resolved.billable,
    low: hundredths(0),
    high: price,
    minimum: hundredths(0),
    basis: "catalogue",
  };
}

/** Every call a run of the session may make, priced for a message of `messageChars`. */
export function runCosts(
  deps: EstimateDeps,
  session: {
    coordinator_model: string;
    manual_agent_selection: boolean;
    agent_preferences: TAgentPreferences | null;
    tools?: TSessionToolSettings | null;
  },
  userKeys: UserProviderKeys,
  messageChars: number,
): RunCosts {
  const preferences = session.agent_preferences ?? {};
  const tokens = Math.ceil(messageChars / 4);
  const roles = rolesOf(session.manual_agent_selection, preferences);
  const coordinator = session.coordinator_model;
  const agents = roles
    .filter((role) => role !== "critic")
    .map((role) =>
      costOf(deps, userKeys, "agent", role, modelOf(deps.engine, preferences, role), tokens),
    )
    .filter((c): c is CallCost => c !== null);
  return {
    plan: costOf(deps, userKeys, "plan", null, coordinator, tokens),
    agents,
    critic: roles.includes("critic")
      ? costOf(
          deps,
          userKeys,
          "critic",
          "critic",
          modelOf(deps.engine, preferences, "critic"),
          tokens,
        )
      : null,
    synthesis: costOf(deps, userKeys, "synthesis", null, coordinator, tokens),
    image: imageCost(
      deps,
      userKeys,
      roles,
      modelOf(deps.engine, preferences, "designer"),
      session.tools,
    ),
  };
}

const charged = (cost: CallCost | null, amount: (c: CallCost) => Hundredths) =>
  cost?.billable ? amount(cost) : 0;
const cheapest = (costs: readonly CallCost[], amount: (c: CallCost) => Hundredths) =>
  costs.length === 0 ? null : costs.reduce((a, b) => (amount(a) <= amount(b) ? a : b));

/**
 * The least a run can cost: its planning call, one agent and the answer, each with its input
 * and a minimal answer. A run that cannot pay this is refused before planning (decision 053).
 */
export function minimalRunCost(costs: RunCosts): Hundredths {
  const minimum = (c: CallCost) => c.minimum;
  return hundredths(
    charged(costs.plan, minimum) +
      charged(cheapest(costs.agents, minimum), minimum) +
      charged(costs.synthesis, minimum),
  );
}

/** GET /api/sessions/{id}/cost-estimate. */
export async function estimateRunCost(
  deps: EstimateDeps,
  principal: Principal,
  sessionId: string,
  query: TCostEstimateQuery,
): Promise<TCostEstimate> {
  const userId = principal.user.id;
  const [session, userKeys] = await Promise.all([
    findSessionFor(deps.engine.db, userId, sessionId, { least: "viewer" }),
    deps.engine.loadUserKeys(principal),
  ]);
  let messageChars = query.message_chars ?? 0;
  if (query.run_id) {
    const run = await getRun(deps.engine.db, query.run_id);
    if (run && run.session_id === session.id) {
      const message = (await listMessages(deps.engine.db, session.id)).find(
        (m) => m.id === run.message_id,
      );
      messageChars = message?.content.length ?? messageChars;
    }
  }
  const costs = runCosts(deps, session, userKeys, messageChars);
  const all = [costs.plan, ...costs.agents, costs.critic, costs.synthesis, costs.image].filter(
    (c): c is CallCost => c !== null,
  );
  const sum = (
    calls: readonly (CallCost | null)[],
    amount: (c: CallCost) => Hundredths,
    only: boolean,
  ) => calls.reduce((total, c) => total + (c && (!only || c.billable) ? amount(c) : 0), 0);
  const lowCalls = [costs.plan, cheapest(costs.agents, (c) => c.low), costs.synthesis];
  const low = (c: CallCost) => c.low;
  const high = (c: CallCost) => c.high;
  const payer = payerFor(session.workspace_id, userId);
  const rooms: Room[] = await spendingRooms(deps.engine.db, payer);
  if (session.budget_credits !== null) {
    rooms.push({
      kind: "session_budget",
      available: hundredths(
        Math.max(0, hundredthsOf(session.budget_credits) - hundredthsOf(session.spent_credits)),
      ),
    });
  }
  const wallet = rooms[0] as Room;
  const least = tightest(rooms);
  const free = all.every((c) => !c.billable);
  const calls: TCostEstimateCall[] = [];
  const push = (cost: CallCost | null, count: number) => {
    if (!cost) return;
    calls.push({
      kind: cost.kind,
      role: cost.role,
      model: cost.model,
      model_name: cost.modelName,
      simulated: cost.simulated,
      count,
      low: creditsOf(cost.billable ? cost.low : hundredths(0)),
      high: creditsOf(cost.billable ? cost.high : hundredths(0)),
      basis: cost.basis,
    });
  };
  push(costs.plan, 1);
  for (const agent of costs.agents) push(agent, 1);
  push(costs.critic, 1);
  push(costs.synthesis, 1);
  push(costs.image, 1);
  const highCalls = [costs.plan, ...costs.agents, costs.critic, costs.synthesis, costs.image];
  return {
    low: creditsOf(hundredths(sum(lowCalls, low, true))),
    high: creditsOf(hundredths(sum(highCalls, high, true))),
    free,
    simulated: all.length > 0 && all.every((c) => c.simulated),
    would_be_low: creditsOf(hundredths(sum(lowCalls, low, false))),
    would_be_high: creditsOf(hundredths(sum(highCalls, high, false))),
    wallet: {
      kind: payer.memberId === null ? "personal" : "workspace",
      workspace_id: payer.memberId === null ? null : payer.accountId,
      available: creditsOf(wallet.available),
    },
    limit: least ? { kind: least.kind, available: creditsOf(least.available) } : null,
    minimum: creditsOf(minimalRunCost(costs)),
    calls,
  };
}
