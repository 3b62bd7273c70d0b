/**
 * Where and how artifact previews are drawn (decision 063): the constants the server, the web
 * app and its build share. No imports, so the web build's config can read this file.
 */
/** The document a preview is drawn in: served by Cohort with its own CSP (decision 063). */
export const ARTIFACT_FRAME_PATH = "/artifact-frame";
/** Where the preview's libraries are served from, readable by the frame's opaque origin. */
export const ARTIFACT_LIB_PREFIX = "/artifact-lib/";
/** The library files, each loaded only by the preview that needs it. */
export const ARTIFACT_LIBRARIES = {
  react: "react.js",
  jsx: "sucrase.js",
  mermaid: "mermaid.js",
} as const;
/** The largest source a preview draws; a longer one stays code only. */
export const ARTIFACT_MAX_CHARS = 500_000;

/**
 * The preview document's policy, sent as its header: scripts inline and from the library
 * path only; no connections, frames, fonts or images from anywhere (data: and blob: images
 * only); sandboxed to an opaque origin even when opened on its own.
 */
export function artifactFrameCsp(origin: string): string {
  return [
    "sandbox allow-scripts",
    "default-src 'none'",
    `script-src 'unsafe-inline' ${origin}${ARTIFACT_LIB_PREFIX}`,
    "style-src 'unsafe-inline'",
    "img-src data: blob:",
    "font-src data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join("; ");
}

/** The same policy without the parts a <meta> cannot carry, for the previewed document. */
export function artifactMetaCsp(origin: string): string {
  return artifactFrameCsp(origin)
    .split("; ")
    .filter((part) => !part.startsWith("sandbox") && !part.startsWith("frame-ancestors"))
    .join("; ");
}
