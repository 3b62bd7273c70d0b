import {
  ARTIFACT_KIND_NAMES,
  ARTIFACT_MAX_CHARS,
  artifactKind,
  artifactTitle,
  type TArtifactKind,
} from "@cohort/contracts";
import { useState } from "react";
import {
  CODE_SURFACE,
  CodeBlock,
  CopyCodeButton,
  HighlightedCode,
} from "../../components/markdown/code-block";
import { languageName } from "../../components/markdown/highlight";
import type { CodeBlockProps } from "../../components/markdown/markdown";
import { copyArtifactLink, downloadArtifact } from "./artifact-actions";
import { ArtifactPreview } from "./artifact-preview";
import { ArtifactTabs } from "./artifact-tabs";
import { ArtifactViewer } from "./artifact-viewer";
import { useArtifacts } from "./artifacts-context";
import { locateArtifact } from "./collect-artifacts";

const ACTION =
  "rounded-md px-2 py-1 text-xs font-medium text-ink-200 transition-colors hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-400";

/**
 * A fenced block that is an artifact: Code and Preview tabs, copy, download, full screen and
 * a link to it. Other blocks, and an artifact still being written, are plain code.
 */
export function ArtifactCodeBlock({ code, lang, closed }: CodeBlockProps) {
  const kind = closed && code.length <= ARTIFACT_MAX_CHARS ? artifactKind(lang, code) : null;
  if (!kind) return <CodeBlock code={code} lang={lang} />;
  return <InlineArtifact kind={kind} code={code} lang={lang} />;
}

function InlineArtifact({ kind, code, lang }: { kind: TArtifactKind; code: string; lang: string }) {
  const [tab, setTab] = useState("code");
  const api = useArtifacts();
  const place = api ? locateArtifact(api.artifacts, code) : null;
  const title = place?.artifact.title ?? artifactTitle(kind, code);
  const name = languageName(lang);
  const [alone, setAlone] = useState(false);
  const openFull = () =>
    place && api ? api.open(place.artifact.key, place.version.n) : setAlone(true);
  return (
    <div className={CODE_SURFACE} data-testid="artifact" data-kind={kind}>
      <ArtifactTabs
        label={`${ARTIFACT_KIND_NAMES[kind]}: ${title}`}
        selected={tab}
        onSelect={setTab}
        tabs={[
          { id: "code", label: "Code", panel: () => <HighlightedCode code={code} lang={lang} /> },
          {
            id: "preview",
            label: "Preview",
            panel: () => <ArtifactPreview kind={kind} code={code} title={title} fit />,
          },
        ]}
        actions={
          <>
            <span className="px-1 font-mono text-[11px] font-semibold tracking-wide text-ink-300 uppercase">
              {name}
              {place ? ` · v${place.version.n}` : ""}
            </span>
            <CopyCodeButton code={code} name={name} />
            <button
              type="button"
              className={ACTION}
              onClick={() => downloadArtifact(kind, title, code)}
            >
              Download
            </button>
            <button type="button" className={ACTION} onClick={openFull}>
              Full screen
            </button>
            {place ? (
              <button
                type="button"
                className={ACTION}
                onClick={() => void copyArtifactLink(place.artifact.key, place.version.n)}
              >
                Copy link
              </button>
            ) : null}
          </>
        }
      />
      {alone ? (
        <ArtifactViewer
          artifact={{
            key: "alone",
            kind,
            title,
            versions: [{ n: 1, code, lang, source: "", runId: "" }],
          }}
          version={1}
          onVersion={() => {}}
          onClose={() => setAlone(false)}
          linkable={false}
        />
      ) : null}
    </div>
  );
}
