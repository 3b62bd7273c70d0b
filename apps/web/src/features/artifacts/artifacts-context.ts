import { createContext, useContext } from "react";
import type { Artifact } from "./collect-artifacts";

/** The artifacts of the session on screen, and how to open one in the viewer. */
export interface ArtifactsApi {
  artifacts: readonly Artifact[];
  open(key: string, version: number): void;
}

export const ArtifactsContext = createContext<ArtifactsApi | null>(null);

export function useArtifacts(): ArtifactsApi | null {
  return useContext(ArtifactsContext);
}
