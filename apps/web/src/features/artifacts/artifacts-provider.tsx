import { ARTIFACT_KIND_NAMES } from "@cohort/contracts";
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { DialogFrame } from "../../components/dialog-frame";
import { CodeBlockContext } from "../../components/markdown/markdown";
import type { ConversationState } from "../chat/run-state";
import { ArtifactCodeBlock } from "./artifact-block";
import { ArtifactViewer } from "./artifact-viewer";
import { type ArtifactsApi, ArtifactsContext, useArtifacts } from "./artifacts-context";
import {
  ARTIFACT_PARAM,
  ARTIFACT_VERSION_PARAM,
  createArtifactCollector,
} from "./collect-artifacts";

/**
 * Gives a session's screen its artifacts (decision 063): code blocks of a previewable kind
 * get Preview tabs, the artifacts panel lists them, and a link with `?artifact=…&version=…`
 * opens that version full screen once the session has loaded.
 */
export function ArtifactsProvider({
  state,
  children,
}: {
  state: ConversationState;
  children: ReactNode;
}) {
  const [collect] = useState(createArtifactCollector);
  const artifacts = useMemo(() => collect(state), [collect, state]);
  const [viewing, setViewing] = useState<{ key: string; version: number } | null>(null);
  const [search] = useSearchParams();
  const linked = useRef(false);

  const wantedKey = search.get(ARTIFACT_PARAM);
  const wantedVersion = Number(search.get(ARTIFACT_VERSION_PARAM) ?? "");
  useEffect(() => {
    if (linked.current || !wantedKey) return;
    const artifact = artifacts.find((a) => a.key === wantedKey);
    if (!artifact) return;
    linked.current = true;
    const version = artifact.versions.some((v) => v.n === wantedVersion)
      ? wantedVersion
      : (artifact.versions.at(-1)?.n ?? 1);
    setViewing({ key: artifact.key, version });
  }, [artifacts, wantedKey, wantedVersion]);

  const api: ArtifactsApi = useMemo(
    () => ({ artifacts, open: (key, version) => setViewing({ key, version }) }),
    [artifacts],
  );
  const shown = viewing ? artifacts.find((a) => a.key === viewing.key) : undefined;
  return (
    <ArtifactsContext.Provider value={api}>
      <CodeBlockContext.Provider value={ArtifactCodeBlock}>{children}</CodeBlockContext.Provider>
      {shown && viewing ? (
        <ArtifactViewer
          artifact={shown}
          version={viewing.version}
          onVersion={(version) => setViewing({ key: shown.key, version })}
          onClose={() => setViewing(null)}
        />
      ) : null}
    </ArtifactsContext.Provider>
  );
}

/** The artifacts panel: a button with their number that lists the session's artifacts. */
export function ArtifactsPanelButton({ className }: { className?: string }) {
  const api = useArtifacts();
  const [open, setOpen] = useState(false);
  if (!api || api.artifacts.length === 0) return null;
  const count = api.artifacts.length;
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className={
          className ??
          "inline-flex items-center gap-1.5 rounded-lg border border-ink-300 bg-white px-3 py-1.5 text-sm font-semibold text-ink-900 hover:bg-ink-50 focus-visible:outline-2 focus-visible:outline-brand-600"
        }
        data-testid="artifacts-button"
      >
        Artifacts
        <span className="rounded-full bg-brand-50 px-1.5 text-xs text-brand-800 ring-1 ring-brand-200 ring-inset">
          {count}
        </span>
      </button>
      <DialogFrame
        open={open}
        onOpenChange={setOpen}
        title="Artifacts"
        description={`${count} in this session: pages, pictures, diagrams, tables and components the team wrote.`}
        wide
        testId="artifacts-panel"
      >
        <ul className="divide-y divide-ink-100" aria-label="Artifacts of this session">
          {api.artifacts.map((artifact) => {
            const latest = artifact.versions.at(-1);
            return (
              <li key={artifact.key}>
                <button
                  type="button"
                  className="flex w-full items-center justify-between gap-3 px-5 py-3 text-left hover:bg-ink-50 focus-visible:outline-2 focus-visible:outline-brand-600 sm:px-6"
                  onClick={() => {
                    setOpen(false);
                    api.open(artifact.key, latest?.n ?? 1);
                  }}
                  data-testid="artifact-item"
                >
                  <span className="min-w-0">
                    <span className="block truncate text-sm font-semibold text-ink-950">
                      {artifact.title}
                    </span>
                    <span className="block text-xs text-ink-600">
                      {ARTIFACT_KIND_NAMES[artifact.kind]}
                      {latest ? ` · latest by ${latest.source}` : ""}
                    </span>
                  </span>
                  <span className="shrink-0 text-xs font-semibold text-ink-700">
                    {artifact.versions.length === 1
                      ? "1 version"
                      : `${artifact.versions.length} versions`}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      </DialogFrame>
    </>
  );
}
