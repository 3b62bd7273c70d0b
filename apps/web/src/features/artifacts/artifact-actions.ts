import { ARTIFACT_FILES, type TArtifactKind } from "@cohort/contracts";
import { copyText } from "../../components/markdown/code-block";
import { toast } from "../../components/toast/toast-store";
import { artifactLink } from "./collect-artifacts";

function fileName(kind: TArtifactKind, title: string): string {
  const base = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `${base || "artifact"}.${ARTIFACT_FILES[kind].extension}`;
}

/** Saves an artifact's source as a file named after it. */
export function downloadArtifact(kind: TArtifactKind, title: string, code: string): void {
  const url = URL.createObjectURL(new Blob([code], { type: ARTIFACT_FILES[kind].mimeType }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName(kind, title);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export async function copyArtifactLink(key: string, version: number): Promise<void> {
  const ok = await copyText(artifactLink(key, version));
  toast(
    ok
      ? { title: "Link copied", description: "It opens this artifact's version on this page." }
      : { title: "The link could not be copied", variant: "error" },
  );
}
