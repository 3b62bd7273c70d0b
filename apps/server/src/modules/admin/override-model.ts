import { ERROR_CODES, type TAdminModelOverrideRequest } from "@cohort/contracts";
import type { Db } from "../../db/client";
import { AppError } from "../../platform/errors";
import type { ModelOverrides } from "../models/model-overrides";
import { requiredModels } from "./list-admin-models";
import { type AdminActor, recordAdminAction } from "./record-admin-action";

/**
 * Switches a model on or off and sets or clears its price override; stored with its audit
 * entry in one transaction, then in force on this instance at once (others within seconds).
 */
export async function overrideModel(
  deps: { db: Db; overrides: ModelOverrides },
  actor: AdminActor,
  modelId: string,
  input: TAdminModelOverrideRequest,
): Promise<void> {
  const model = deps.overrides.base.getModel(modelId);
  if (!model) throw new AppError(ERROR_CODES.notFound, 404, "This model does not exist.");
  if (!input.enabled && requiredModels(deps.overrides.base).has(modelId)) {
    throw new AppError(
      ERROR_CODES.conflict,
      409,
      `${model.name} is a default model (of an agent role or CoChat) and cannot be switched off.`,
    );
  }
  await deps.db.transaction(async (tx) => {
    const before = await deps.overrides.save(tx, {
      modelId,
      enabled: input.enabled,
      price: input.price,
    });
    await recordAdminAction(tx, actor, {
      action: "model.override",
      targetType: "model",
      targetId: modelId,
      before: {
        enabled: before?.enabled ?? true,
        price: before?.price ?? model.price,
      },
      after: { enabled: input.enabled, price: input.price ?? model.price },
      reason: input.reason,
    });
  });
  await deps.overrides.refresh();
}
