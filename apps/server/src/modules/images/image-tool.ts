import { generatedImageFileName, IMAGE_PROMPT_MAX_CHARS, makesImages } from "@cohort/contracts";
import { z } from "zod";
import type { Db } from "../../db/client";
import type { DocumentStore } from "../documents/document-store";
import type { ModelGateway } from "../models/gateway";
import type { ToolDefinition, ToolProvider } from "../tools/tool-definition";
import { storeImage } from "./store-image";

/** The model the tool draws with: CoVision, whose backends the catalogue chooses. */
export const IMAGE_TOOL_MODEL = "covision";

const ZGenerateImageInput = z.object({
  prompt: z
    .string()
    .min(1)
    .max(IMAGE_PROMPT_MAX_CHARS)
    .describe("What the picture shows: subject, composition, style, colours, text in it."),
});
type GenerateImageInput = z.infer<typeof ZGenerateImageInput>;

/**
 * `generate_image` (decision 064): the Designer asks CoVision for a picture mid-answer. It
 * is costly (its price per image is held before it runs, like a model call's); the picture
 * is stored with the run's session like a lane's, and the model is told the Markdown that
 * shows it, so its answer can carry the image.
 */
export function imageToolProvider(deps: {
  db: Db;
  models: ModelGateway;
  store: DocumentStore;
  timeoutMs: number;
}): ToolProvider {
  const { models } = deps;
  const tool = (): ToolDefinition<GenerateImageInput> | null => {
    const model = models.catalogue.getModel(IMAGE_TOOL_MODEL);
    if (!model || !makesImages(model)) return null;
    // The hold: what one image costs now (0 when only the uncharged simulator can draw).
    const price = models.estimateCall({
      modelId: IMAGE_TOOL_MODEL,
      messages: [{ role: "user", content: "" }],
    }).worstCaseCredits;
    return {
      name: "generate_image",
      title: "Generate an image",
      description: `Makes one picture with ${model.name} from a description and stores it with the session. Answers with the Markdown that shows it; put that Markdown in your answer where the picture belongs.`,
      input: { kind: "zod", schema: ZGenerateImageInput },
      risk: "costly",
      source: { kind: "builtin" },
      price,
      untrustedOutput: false,
      timeoutMs: deps.timeoutMs,
      async execute(input, ctx) {
        let kept: { id: string; url: string; mediaType: string; bytes: number } | null = null;
        const result = await models.streamModel({
          modelId: IMAGE_TOOL_MODEL,
          messages: [{ role: "user", content: input.prompt }],
          imagePrompt: input.prompt,
          abortSignal: ctx.signal,
          storeImage: async (image) => {
            const owner = { sessionId: ctx.sessionId, runId: ctx.runId, callId: null };
            const stored = await storeImage(
              deps.db,
              deps.store,
              { ...owner, userId: ctx.userId },
              image,
            );
            kept = { ...stored, mediaType: image.mediaType, bytes: image.bytes.byteLength };
            return stored;
          },
        });
        const file = kept as { id: string; url: string; mediaType: string; bytes: number } | null;
        return {
          text: `The image is made. Show it with this Markdown:\n\n${result.text}`,
          data: {
            url: file?.url ?? null,
            simulated: result.simulated,
            model: result.providerModel,
          },
          ...(file
            ? {
                files: [
                  {
                    name: generatedImageFileName(file.id, file.mediaType),
                    mediaType: file.mediaType,
                    bytes: file.bytes,
                    url: file.url,
                  },
                ],
              }
            : {}),
          creditsUsed: result.credits,
        };
      },
    };
  };
  return {
    id: "images",
    async tools() {
      const made = tool();
      return made ? [made as unknown as ToolDefinition] : [];
    },
    unavailable() {
      return tool()
        ? []
        : [
            {
              name: "generate_image",
              reason: `generate_image: the catalogue has no image model "${IMAGE_TOOL_MODEL}"`,
            },
          ];
    },
  };
}
