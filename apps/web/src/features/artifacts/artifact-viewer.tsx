import { ARTIFACT_KIND_NAMES } from "@cohort/contracts";
import { Dialog } from "radix-ui";
import { useState } from "react";
import { cn } from "../../components/cn";
import { DialogCloseButton } from "../../components/dialog-frame";
import { HighlightedCode } from "../../components/markdown/code-block";
import { copyArtifactLink, downloadArtifact } from "./artifact-actions";
import { ArtifactPreview } from "./artifact-preview";
import { ArtifactTabs, type TabSpec } from "./artifact-tabs";
import type { Artifact } from "./collect-artifacts";
import { diffLines } from "./diff-lines";

const ACTION =
  "rounded-lg border border-ink-300 bg-white px-2.5 py-1 text-xs font-semibold text-ink-800 hover:bg-ink-50 focus-visible:outline-2 focus-visible:outline-brand-600";

function Changes({ before, after }: { before: string; after: string }) {
  const lines = diffLines(before, after);
  if (!lines) {
    return (
      <p className="p-4 text-sm text-ink-700">
        These versions are too long to compare line by line.
      </p>
    );
  }
  const added = lines.filter((line) => line.type === "added").length;
  const removed = lines.filter((line) => line.type === "removed").length;
  return (
    <div className="h-full overflow-auto bg-white">
      <p
        className="border-b border-ink-100 px-4 py-2 text-xs text-ink-700"
        data-testid="artifact-diff-summary"
      >
        {added} {added === 1 ? "line" : "lines"} added, {removed} removed
      </p>
      <pre className="p-3 font-mono text-[13px] leading-5" data-testid="artifact-diff">
        {lines.map((line, index) => (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: diff lines are positional
            key={index}
            className={cn(
              "px-2 whitespace-pre-wrap",
              line.type === "added" && "bg-emerald-50 text-emerald-900",
              line.type === "removed" && "bg-red-50 text-red-900 line-through decoration-red-300",
            )}
          >
            <span aria-hidden="true" className="mr-2 select-none text-ink-500">
              {line.type === "added" ? "+" : line.type === "removed" ? "−" : " "}
            </span>
            <span className="sr-only">
              {line.type === "added" ? "Added: " : line.type === "removed" ? "Removed: " : ""}
            </span>
            {line.text}
          </div>
        ))}
      </pre>
    </div>
  );
}

/**
 * An artifact full screen: its versions (v1, v2, … with who wrote each), the preview, the
 * code, and the changes from the version before; download and a link to the version.
 */
export function ArtifactViewer({
  artifact,
  version,
  onVersion,
  onClose,
  linkable = true,
}: {
  artifact: Artifact;
  version: number;
  onVersion(version: number): void;
  onClose(): void;
  linkable?: boolean;
}) {
  const [tab, setTab] = useState("preview");
  const shown = artifact.versions.find((v) => v.n === version) ?? artifact.versions.at(-1);
  if (!shown) return null;
  const previous = artifact.versions.find((v) => v.n === shown.n - 1);
  const tabs: TabSpec[] = [
    {
      id: "preview",
      label: "Preview",
      panel: () => (
        <ArtifactPreview
          kind={artifact.kind}
          code={shown.code}
          title={artifact.title}
          className="h-full"
        />
      ),
    },
    {
      id: "code",
      label: "Code",
      panel: () => (
        <div className="h-full overflow-auto bg-ink-950 text-ink-100">
          <HighlightedCode code={shown.code} lang={shown.lang} />
        </div>
      ),
    },
    ...(previous
      ? [
          {
            id: "changes",
            label: `Changes from v${previous.n}`,
            panel: () => <Changes before={previous.code} after={shown.code} />,
          },
        ]
      : []),
  ];
  return (
    <Dialog.Root open onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-ink-950/50" />
        <Dialog.Content
          className="fixed inset-0 z-50 flex flex-col bg-white outline-none sm:inset-3 sm:rounded-2xl"
          data-testid="artifact-viewer"
          aria-describedby={undefined}
        >
          <div className="flex flex-wrap items-center justify-between gap-2 border-b border-ink-200 px-4 py-2.5">
            <div className="min-w-0">
              <Dialog.Title className="truncate text-base font-bold text-ink-950">
                {artifact.title}
              </Dialog.Title>
              <p className="text-xs text-ink-600">
                {ARTIFACT_KIND_NAMES[artifact.kind]}
                {shown.source ? ` · v${shown.n} by ${shown.source}` : ""}
              </p>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              {artifact.versions.length > 1 ? (
                <fieldset className="flex items-center gap-1 border-0 p-0" aria-label="Versions">
                  {artifact.versions.map((v) => (
                    <button
                      key={v.n}
                      type="button"
                      aria-pressed={v.n === shown.n}
                      onClick={() => onVersion(v.n)}
                      title={v.source}
                      className={cn(
                        "rounded-lg px-2.5 py-1 text-xs font-semibold focus-visible:outline-2 focus-visible:outline-brand-600",
                        v.n === shown.n ? "bg-ink-900 text-white" : "text-ink-700 hover:bg-ink-100",
                      )}
                    >
                      v{v.n}
                    </button>
                  ))}
                </fieldset>
              ) : null}
              <button
                type="button"
                className={ACTION}
                onClick={() => downloadArtifact(artifact.kind, artifact.title, shown.code)}
              >
                Download
              </button>
              {linkable ? (
                <button
                  type="button"
                  className={ACTION}
                  onClick={() => void copyArtifactLink(artifact.key, shown.n)}
                >
                  Copy link
                </button>
              ) : null}
              <DialogCloseButton className="focus-visible:outline-2 focus-visible:outline-brand-600" />
            </div>
          </div>
          <div className="flex min-h-0 flex-1 flex-col">
            <ArtifactTabs
              label={`${artifact.title}, version ${shown.n}`}
              tabs={tabs}
              selected={tab}
              onSelect={setTab}
              tone="light"
              panelClassName="min-h-0 flex-1"
            />
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
