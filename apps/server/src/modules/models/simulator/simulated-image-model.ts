import type { ImageModelV3 } from "@ai-sdk/provider";
import { hashString, seededRandom } from "./seeded-random";
import { capitalise, subjectOf } from "./subject";
import { renderSvg } from "./svg-image";

/**
 * The simulator's image model (decision 064): without a provider for an image model, its
 * picture is the simulator's seeded vector illustration of the prompt's subject, returned
 * as SVG bytes through the same image-model seam a provider's model uses. What shows it
 * labels it "Simulated image".
 */
export function createSimulatedImageModel(modelId: string): ImageModelV3 {
  return {
    specificationVersion: "v3",
    provider: "simulator",
    modelId,
    maxImagesPerCall: 1,
    async doGenerate(options) {
      options.abortSignal?.throwIfAborted();
      const prompt = options.prompt ?? "";
      const random = seededRandom(hashString(`${modelId}\u0000image\u0000${prompt}`));
      const svg = renderSvg(capitalise(subjectOf(prompt)), random);
      const images = Array.from({ length: options.n }, () => new TextEncoder().encode(svg));
      return {
        images,
        warnings: [],
        response: { timestamp: new Date(), modelId, headers: undefined },
      };
    },
  };
}
