import {
  AGENT_ROLE_NAMES,
  AGENT_ROLES,
  SESSION_ERROR_CODES,
  type TAgentPreferences,
} from "@cohort/contracts";
import { AppError } from "../../platform/errors";
import type { Catalogue } from "../models/catalogue";

export interface ModelChoices {
  coordinator_model: string;
  manual_agent_selection: boolean;
  agent_preferences: TAgentPreferences | null;
}

function unknownModel(id: string, where: string): AppError {
  return new AppError(
    SESSION_ERROR_CODES.unknownModel,
    400,
    `There is no model "${id}" (${where}). See GET /api/ai/models for the list.`,
    { model: id, field: where },
  );
}

/**
 * A session's models must be in the catalogue and fit their job: the coordinator plans with
 * structured output, and each role's model must be one the role lists as suitable. Manual
 * selection needs at least one working role besides the Critic, who only reviews.
 */
export function checkModelChoices(catalogue: Catalogue, choices: ModelChoices): void {
  const coordinator = catalogue.getModel(choices.coordinator_model);
  if (!coordinator) throw unknownModel(choices.coordinator_model, "coordinator_model");
  if (!coordinator.capabilities.includes("structured")) {
    throw new AppError(
      SESSION_ERROR_CODES.modelNotSuitable,
      400,
      `${coordinator.name} cannot coordinate: the coordinator needs a model with structured output.`,
      { model: coordinator.id, field: "coordinator_model" },
    );
  }
  const preferences = choices.agent_preferences ?? {};
  for (const role of AGENT_ROLES) {
    const modelId = preferences[role]?.model;
    if (!modelId) continue;
    const model = catalogue.getModel(modelId);
    if (!model) throw unknownModel(modelId, `agent_preferences.${role}.model`);
    if (!catalogue.getRole(role)?.suitableModels.includes(modelId)) {
      throw new AppError(
        SESSION_ERROR_CODES.modelNotSuitable,
        400,
        `${model.name} is not available for the ${AGENT_ROLE_NAMES[role]} role. See GET /api/models/by-role/${role}.`,
        { model: modelId, field: `agent_preferences.${role}.model` },
      );
    }
  }
  if (choices.manual_agent_selection) {
    const working = AGENT_ROLES.filter((r) => r !== "critic" && preferences[r]?.enabled === true);
    if (working.length === 0) {
      throw new AppError(
        SESSION_ERROR_CODES.noAgentsSelected,
        400,
        "Choose at least one agent besides the Critic, or let the coordinator choose (automatic selection).",
      );
    }
  }
}
