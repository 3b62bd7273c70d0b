import {
  AGENT_ROLE_NAMES,
  ARTIFACT_MAX_CHARS,
  artifactTitle,
  type Block,
  createMarkdownReader,
  findArtifacts,
  type TArtifactKind,
  type TFoundArtifact,
} from "@cohort/contracts";
import { type ConversationState, type RunView, sameRunPlaces, timelineOf } from "../chat/run-state";

/** One version of an artifact: its source and where in the session it was written. */
export interface ArtifactVersion {
  /** 1, 2, … in the order the session wrote them. */
  n: number;
  code: string;
  lang: string;
  /** Who wrote it: "Coder", "Coder (revision)", "Answer", "Answer v2". */
  source: string;
  runId: string;
}

/** An artifact of a session with all of its versions, oldest first (decision 063). */
export interface Artifact {
  /** Stable within the session and safe in a URL: the kind and the title, or its place. */
  key: string;
  kind: TArtifactKind;
  title: string;
  versions: ArtifactVersion[];
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48);
}

/**
 * The session's artifacts, derived from its texts (no table: decision 063): every finished
 * fenced block of a previewable kind in an agent's draft or revision, the answer and its
 * re-written versions, run after run. Blocks are one artifact when they share kind and title
 * (a page's <title>, a document's first heading, a component's name), else kind and place
 * ("the second SVG of a text"); a block that repeats the previous version's source exactly
 * (the answer quoting the Coder) is no new version.
 */
export function collectArtifacts(
  state: ConversationState,
  find: (text: string, source: string, runId: string) => TFoundArtifact[] = (text) =>
    findArtifacts(text),
  /** The state's runs in the order of its timeline, when the caller knows them already. */
  runs: readonly RunView[] = runsInOrder(state),
): Artifact[] {
  const byKey = new Map<string, Artifact>();
  const add = (text: string, source: string, runId: string) => {
    for (const found of find(text, source, runId)) {
      if (found.code.length > ARTIFACT_MAX_CHARS) continue;
      const title = artifactTitle(found.kind, found.code);
      const named = title !== artifactTitle(found.kind, "");
      const key = named ? `${found.kind}-${slug(title)}` : `${found.kind}-${found.ordinal}`;
      const artifact =
        byKey.get(key) ??
        ({
          key,
          kind: found.kind,
          title: named ? title : `${title} ${found.ordinal}`,
          versions: [],
        } satisfies Artifact);
      byKey.set(key, artifact);
      if (artifact.versions.some((v) => v.code === found.code)) continue;
      artifact.versions.push({
        n: artifact.versions.length + 1,
        code: found.code,
        lang: found.lang,
        source,
        runId,
      });
    }
  };
  for (const run of runs) {
    for (const lane of run.lanes) {
      if (lane.kind === "critic") continue;
      const name = AGENT_ROLE_NAMES[lane.role];
      const source =
        lane.kind === "revision"
          ? `${name} (revision)`
          : lane.version > 1
            ? `${name} (re-run ${lane.version})`
            : name;
      add(lane.text, source, run.id);
    }
    if (run.final) add(run.final.text, "Answer", run.id);
    run.answers.forEach((answer, index) => {
      add(answer.text, `Answer v${index + 2}`, run.id);
    });
  }
  return [...byKey.values()];
}

function runsInOrder(state: ConversationState): RunView[] {
  return timelineOf(state).flatMap((entry) => (entry.run ? [entry.run] : []));
}

const sameArtifacts = (a: readonly Artifact[], b: readonly Artifact[]) =>
  a.length === b.length &&
  a.every((artifact, i) => {
    const other = b[i];
    return (
      other !== undefined &&
      artifact.key === other.key &&
      artifact.kind === other.kind &&
      artifact.title === other.title &&
      artifact.versions.length === other.versions.length &&
      artifact.versions.every((v, j) => {
        const w = other.versions[j];
        return (
          w !== undefined &&
          v.n === w.n &&
          v.code === w.code &&
          v.lang === w.lang &&
          v.source === w.source &&
          v.runId === w.runId
        );
      })
    );
  });

/**
 * `collectArtifacts` for a screen whose state changes on every streamed frame (decision 077):
 * a text it read last time is not read again, a growing one is read from where its Markdown
 * still changes, and while the artifacts stay the same it gives back the same list, so the
 * code blocks that read it are not drawn again.
 */
export function createArtifactCollector(): (state: ConversationState) => Artifact[] {
  let found = new Map<string, TFoundArtifact[]>();
  let readers = new Map<string, (text: string) => Block[]>();
  let last: Artifact[] = [];
  let order: { state: ConversationState; ids: string[] } | null = null;
  return (state) => {
    const foundNow = new Map<string, TFoundArtifact[]>();
    const readersNow = new Map<string, (text: string) => Block[]>();
    // The runs' order changes only when a run is placed anew, not with a delta.
    const runs =
      order && sameRunPlaces(order.state, state)
        ? order.ids.flatMap((id) => state.runs[id] ?? [])
        : runsInOrder(state);
    order = { state, ids: runs.map((run) => run.id) };
    const next = collectArtifacts(
      state,
      (text, source, runId) => {
        const where = `${runId} ${source}`;
        const read = readers.get(where) ?? readersNow.get(where) ?? createMarkdownReader();
        readersNow.set(where, read);
        const artifacts = found.get(text) ?? foundNow.get(text) ?? findArtifacts(text, read);
        foundNow.set(text, artifacts);
        return artifacts;
      },
      runs,
    );
    found = foundNow;
    readers = readersNow;
    if (!sameArtifacts(last, next)) last = next;
    return last;
  };
}

/** Where an inline block sits among the session's artifacts: its artifact and version. */
export function locateArtifact(
  artifacts: readonly Artifact[],
  code: string,
): { artifact: Artifact; version: ArtifactVersion } | null {
  for (const artifact of artifacts) {
    const version = artifact.versions.find((v) => v.code === code);
    if (version) return { artifact, version };
  }
  return null;
}

/** The search parameters of a link to an artifact's version on the page it is on. */
export const ARTIFACT_PARAM = "artifact";
export const ARTIFACT_VERSION_PARAM = "version";

export function artifactLink(key: string, version: number): string {
  const url = new URL(window.location.href);
  url.hash = "";
  url.searchParams.set(ARTIFACT_PARAM, key);
  url.searchParams.set(ARTIFACT_VERSION_PARAM, String(version));
  return url.toString();
}
