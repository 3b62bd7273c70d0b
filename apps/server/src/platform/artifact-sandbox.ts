import path from "node:path";
import { ARTIFACT_FRAME_PATH, artifactFrameCsp } from "@cohort/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";

/**
 * The preview frame's document (decision 063). It holds no artifact: the app sends one by
 * postMessage, and this script writes it over itself. It trusts only its parent window at
 * Cohort's origin and takes one document, so a previewed script cannot make it load another.
 * Wrapped in a function so that its names do not clash with the artifact's own scripts.
 */
const FRAME_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Artifact preview</title></head><body><script>(function () {
  var origin = new URL(location.href).origin;
  addEventListener("message", function take(event) {
    if (event.source !== parent || event.origin !== origin) return;
    var data = event.data;
    if (!data || data.type !== "cohort-artifact" || typeof data.html !== "string") return;
    removeEventListener("message", take);
    document.open();
    document.write(data.html);
    document.close();
  });
  parent.postMessage({ type: "cohort-artifact-ready" }, origin);
})();</script></body></html>`;

/** This server's origin as the browser reached it: what the frame's policy names. */
function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * Serves the artifact preview's frame document with its own policy: no network, scripts
 * inline and from the library path only, an opaque origin even when opened on its own.
 */
export function registerArtifactFrame(app: FastifyInstance): void {
  app.get(ARTIFACT_FRAME_PATH, { schema: { hide: true } }, async (request, reply) =>
    reply
      .header("content-security-policy", artifactFrameCsp(requestOrigin(request)))
      .header("x-frame-options", "SAMEORIGIN")
      .header("cache-control", "no-cache")
      .header("x-robots-tag", "noindex")
      .type("text/html; charset=utf-8")
      .send(FRAME_HTML),
  );
}

/**
 * The preview's libraries (React, the JSX transform, Mermaid) are static files of the web build;
 * the frame's opaque origin reads them across origins, so they go with
 * `Access-Control-Allow-Origin: *` and `Cross-Origin-Resource-Policy: cross-origin`. They are
 * public code and no request for them carries credentials.
 */
export function isArtifactLibrary(webDistDir: string, filePath: string): boolean {
  return path.relative(webDistDir, filePath).split(path.sep)[0] === "artifact-lib";
}
