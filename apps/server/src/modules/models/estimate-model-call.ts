import type { ImageModelV3, LanguageModelV3 } from "@ai-sdk/provider";
import { estimateTokens, MODEL_ERROR_CODES, NO_CREDITS, worstCaseCredits } from "@cohort/contracts";
import { AppError } from "../../platform/errors";
import { buildCatalogue, type Catalogue } from "./catalogue";
import type { CatalogueModel } from "./catalogue-schema";
import type {
  CallEstimate,
  GatewayMessage,
  GatewayOptions,
  ModelCallInput,
  StreamModelInput,
} from "./gateway";
import {
  createProviders,
  type Providers,
  type ResolvedModel,
  resolveModel,
  type UserProviderKeys,
} from "./providers";
import { createSimulatedImageModel } from "./simulator/simulated-image-model";
import { createSimulatedModel } from "./simulator/simulated-model";

/**
 * The model gateway's catalogue side: which model an id names, the fallback chain a call
 * would use now (with the simulator where no provider is configured), and the worst case of
 * a call before it starts, for credit reservations. Calling and retrying is `call-model.ts`.
 */

/** A message's text as its prompt carries it (for estimates): its tool calls and results too. */
export function messageText(message: GatewayMessage): string {
  if (!message.tools || message.tools.length === 0) return message.content;
  return [message.content, ...message.tools.flatMap((t) => [t.toolName, t.input, t.output])].join(
    "\n",
  );
}

/** The offered tools' names, descriptions and schemas: part of the prompt the model reads. */
export function toolsText(input: ModelCallInput | StreamModelInput): string[] {
  const tools = "tools" in input ? input.tools : undefined;
  return (tools ?? []).map((t) => `${t.name} ${t.description} ${JSON.stringify(t.inputSchema)}`);
}

export interface ModelResolver {
  readonly catalogue: Catalogue;
  readonly providers: Providers;
  /** A simulated call costs nothing unless the operator turns charging on (decision 053). */
  readonly simulatorCharges: boolean;
  resolve(modelId: string, userKeys?: UserProviderKeys): ResolvedModel | undefined;
  /** As resolve, or the 404 that names the missing model. */
  resolveOrThrow(modelId: string, userKeys?: UserProviderKeys): ResolvedModel;
  /** The model's, the role's and the caller's system prompts, joined. */
  systemFor(model: CatalogueModel, input: ModelCallInput): string | undefined;
  maxOutputFor(model: CatalogueModel, requested: number | undefined): number;
  estimateCall(input: ModelCallInput): CallEstimate;
}

export function createModelResolver(options: GatewayOptions): ModelResolver {
  const { config } = options;
  const catalogue =
    options.catalogue ??
    buildCatalogue({
      file: config.catalogueFile,
      localModels: config.openaiCompatible.models,
      localEmbeddingModels: config.openaiCompatible.embeddingModels ?? [],
      localImageModels: config.openaiCompatible.imageModels ?? [],
    });
  const providers = createProviders(config, options.localServers);
  const simulators = new Map<string, LanguageModelV3>();
  const simulatedImageModels = new Map<string, ImageModelV3>();
  const simulatedImages = (modelId: string) => {
    let model = simulatedImageModels.get(modelId);
    if (!model) {
      model = createSimulatedImageModel(modelId);
      simulatedImageModels.set(modelId, model);
    }
    return model;
  };
  const simulator = (modelId: string) => {
    let model = simulators.get(modelId);
    if (!model) {
      model = createSimulatedModel(modelId, { tokensPerSecond: config.simulatorTokensPerSecond });
      simulators.set(modelId, model);
    }
    return model;
  };
  // A simulated call costs nothing unless the operator turns charging on (decision 053).
  const simulatorCharges = config.simulatorCharges === true;
  const resolve = (modelId: string, userKeys?: UserProviderKeys) => {
    const resolved = resolveModel(
      { catalogue, providers, simulator, simulatedImages },
      modelId,
      userKeys,
    );
    return resolved?.simulated && !simulatorCharges ? { ...resolved, billable: false } : resolved;
  };

  function resolveOrThrow(modelId: string, userKeys?: UserProviderKeys): ResolvedModel {
    const resolved = resolve(modelId, userKeys);
    if (!resolved) {
      throw new AppError(
        MODEL_ERROR_CODES.modelNotFound,
        404,
        `There is no model "${modelId}". See GET /api/ai/models for the list.`,
      );
    }
    return resolved;
  }

  function systemFor(model: CatalogueModel, input: ModelCallInput): string | undefined {
    const role = input.role ? catalogue.getRole(input.role) : undefined;
    const parts = [model.systemPrompt, role?.systemPrompt, input.system].filter((p): p is string =>
      Boolean(p?.trim()),
    );
    return parts.length > 0 ? parts.join("\n\n") : undefined;
  }

  function maxOutputFor(model: CatalogueModel, requested: number | undefined): number {
    return Math.max(1, Math.min(requested ?? model.maxOutputTokens, model.maxOutputTokens));
  }

  function estimateCall(input: ModelCallInput): CallEstimate {
    const resolved = resolveOrThrow(input.modelId, input.userKeys);
    const maxOutputTokens = maxOutputFor(resolved.model, input.maxOutputTokens);
    const system = systemFor(resolved.model, input) ?? "";
    const inputTokensEstimate = estimateTokens(
      [system, ...input.messages.map(messageText), ...toolsText(input)].join("\n"),
    );
    return {
      model: resolved.model,
      maxOutputTokens,
      inputTokensEstimate,
      worstCaseCredits: resolved.billable
        ? worstCaseCredits(resolved.model, inputTokensEstimate, maxOutputTokens)
        : NO_CREDITS,
      billable: resolved.billable,
      simulated: resolved.simulated,
    };
  }

  return {
    catalogue,
    providers,
    simulatorCharges,
    resolve,
    resolveOrThrow,
    systemFor,
    maxOutputFor,
    estimateCall,
  };
}
