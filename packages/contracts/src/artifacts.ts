import { type Block, parseMarkdown } from "./markdown";

/**
 * Artifacts: code blocks of a kind a browser can show (a page, a picture, a diagram, a table,
 * a React component), previewed in a sandboxed frame (decision 063). They are derived from
 * the text of steps and answers (fenced blocks with a language tag), so they need no table:
 * exports and shared views carry them because they carry the text.
 */
export const ARTIFACT_KINDS = ["html", "svg", "markdown", "mermaid", "csv", "react"] as const;
export type TArtifactKind = (typeof ARTIFACT_KINDS)[number];

export const ARTIFACT_KIND_NAMES: Record<TArtifactKind, string> = {
  html: "HTML page",
  svg: "SVG image",
  markdown: "Markdown document",
  mermaid: "Mermaid diagram",
  csv: "CSV table",
  react: "React component",
};

/** The file a download of each kind gets (its extension and type). */
export const ARTIFACT_FILES: Record<TArtifactKind, { extension: string; mimeType: string }> = {
  html: { extension: "html", mimeType: "text/html" },
  svg: { extension: "svg", mimeType: "image/svg+xml" },
  markdown: { extension: "md", mimeType: "text/markdown" },
  mermaid: { extension: "mmd", mimeType: "text/plain" },
  csv: { extension: "csv", mimeType: "text/csv" },
  react: { extension: "jsx", mimeType: "text/javascript" },
};

const LANG_KINDS: Record<string, TArtifactKind> = {
  html: "html",
  htm: "html",
  xhtml: "html",
  svg: "svg",
  md: "markdown",
  markdown: "markdown",
  mermaid: "mermaid",
  mmd: "mermaid",
  csv: "csv",
  jsx: "react",
  tsx: "react",
  react: "react",
};

/**
 * The kind of artifact a fenced block is, from its language tag, or null for code that is
 * only code. JSX/TSX is a React component when it exports one (a default export or `App`);
 * XML that is an `<svg>` is an SVG image.
 */
export function artifactKind(lang: string, code: string): TArtifactKind | null {
  const tag = lang.trim().toLowerCase();
  if (tag === "xml" && /^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/i.test(code)) return "svg";
  const kind = LANG_KINDS[tag];
  if (!kind) return null;
  if (kind === "react" && !/export\s+default\b|\b(function|const|class)\s+App\b/.test(code)) {
    return null;
  }
  return code.trim() === "" ? null : kind;
}

/** One artifact found in a text: its kind, language tag, source and place among the text's. */
export interface TFoundArtifact {
  kind: TArtifactKind;
  lang: string;
  code: string;
  /** 1 for the text's first artifact of this kind, 2 for its second, … */
  ordinal: number;
}

function collectCode(blocks: Block[], into: { lang: string; text: string }[]): void {
  for (const block of blocks) {
    if (block.type === "code" && block.closed) into.push({ lang: block.lang, text: block.text });
    else if (block.type === "quote") collectCode(block.children, into);
    else if (block.type === "list") for (const item of block.items) collectCode(item, into);
  }
}

/**
 * The artifacts of a text, in order: its finished fenced blocks of a previewable kind. `read`
 * reads its Markdown: a streaming text's own reader (`createMarkdownReader`) reads only its end.
 */
export function findArtifacts(
  text: string,
  read: (text: string) => Block[] = parseMarkdown,
): TFoundArtifact[] {
  if (!text.includes("```") && !text.includes("~~~")) return [];
  const code: { lang: string; text: string }[] = [];
  collectCode(read(text), code);
  const counts = new Map<TArtifactKind, number>();
  const found: TFoundArtifact[] = [];
  for (const block of code) {
    const kind = artifactKind(block.lang, block.text);
    if (!kind) continue;
    const ordinal = (counts.get(kind) ?? 0) + 1;
    counts.set(kind, ordinal);
    found.push({ kind, lang: block.lang, code: block.text, ordinal });
  }
  return found;
}

/** A short title for an artifact: its `<title>`, first heading or first line, else its kind. */
export function artifactTitle(kind: TArtifactKind, code: string): string {
  const clip = (text: string) => {
    const clean = text.replace(/\s+/g, " ").trim();
    return clean.length > 60 ? `${clean.slice(0, 59)}…` : clean;
  };
  const title =
    kind === "html" || kind === "svg"
      ? /<title[^>]*>([^<]{1,200})<\/title>/i.exec(code)?.[1]
      : kind === "markdown"
        ? /^#{1,6}\s+(.{1,200})$/m.exec(code)?.[1]
        : kind === "react"
          ? /export\s+default\s+function\s+(\w{1,80})/.exec(code)?.[1]
          : undefined;
  return title && clip(title) ? clip(title) : ARTIFACT_KIND_NAMES[kind];
}
