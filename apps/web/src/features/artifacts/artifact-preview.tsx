import { ARTIFACT_FRAME_PATH, type TArtifactKind } from "@cohort/contracts";
import { useEffect, useMemo, useRef, useState } from "react";
import { cn } from "../../components/cn";
import { ARTIFACT_HEIGHT_MESSAGE, previewDocument } from "./preview-document";

/** A fitted preview's bounds (decision 068): never a sliver, never taller than a screenful. */
export const PREVIEW_MIN_HEIGHT = 120;
export const PREVIEW_MAX_HEIGHT = 640;

/**
 * An artifact drawn in a sandboxed frame (decision 063): `sandbox="allow-scripts"` without
 * `allow-same-origin` gives it an opaque origin (no cookies, no storage, no access to this
 * page), and the frame's document, served by Cohort with its own policy, allows no
 * connection at all. The frame asks for its document when it is ready; it gets the same one
 * whoever asks again, so a previewed script gains nothing by asking.
 */
export function ArtifactPreview({
  kind,
  code,
  title,
  className,
  fit = false,
}: {
  kind: TArtifactKind;
  code: string;
  title: string;
  className?: string;
  /** Height follows the content, within PREVIEW_MIN_HEIGHT–PREVIEW_MAX_HEIGHT. */
  fit?: boolean;
}) {
  const [height, setHeight] = useState<number | null>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const html = useMemo(() => previewDocument(kind, code, window.location.origin), [kind, code]);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const target = frame.current?.contentWindow;
      if (!target || event.source !== target) return;
      const data: unknown = event.data;
      if (typeof data !== "object" || data === null) return;
      const type = (data as { type?: unknown }).type;
      if (type === ARTIFACT_HEIGHT_MESSAGE) {
        const reported = (data as { height?: unknown }).height;
        if (typeof reported === "number" && Number.isFinite(reported)) {
          setHeight(
            Math.min(PREVIEW_MAX_HEIGHT, Math.max(PREVIEW_MIN_HEIGHT, Math.ceil(reported))),
          );
        }
        return;
      }
      if (type !== "cohort-artifact-ready") return;
      // The frame's origin is opaque ("null"): no other target origin reaches it.
      target.postMessage({ type: "cohort-artifact", html }, "*");
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [html]);

  return (
    <iframe
      // A new document for a new source: the frame takes one document only.
      key={html}
      ref={frame}
      src={ARTIFACT_FRAME_PATH}
      sandbox="allow-scripts"
      title={`Preview of ${title}`}
      referrerPolicy="no-referrer"
      className={cn("block w-full border-0 bg-white", className)}
      style={fit ? { height: height ?? PREVIEW_MIN_HEIGHT * 2 } : undefined}
      data-fitted-height={fit && height !== null ? height : undefined}
      data-testid="artifact-frame"
    />
  );
}
