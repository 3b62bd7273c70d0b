import { useCallback, useEffect, useRef, useState } from "react";
import { isApiError } from "../../lib/api/api-error";
import { uploadDocument } from "./upload-document";

/**
 * The files being sent, one request each, a few at a time. An item is `uploading` with its
 * progress, then `uploaded` (the document's own status, processing → ready or failed, comes
 * from the list), or `refused` with the server's reason.
 */
export type UploadPhase = "waiting" | "uploading" | "uploaded" | "refused";

export interface UploadItem {
  key: string;
  fileName: string;
  size: number;
  phase: UploadPhase;
  loaded: number;
  total: number;
  documentId: string | null;
  message: string | null;
}

/** More at once would only split the same bandwidth; three keep the rows moving. */
const PARALLEL_UPLOADS = 3;

let counter = 0;

export function useUploads(onUploaded: () => void) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const queue = useRef<{ key: string; file: File }[]>([]);
  const active = useRef(0);
  const controllers = useRef(new Set<AbortController>());
  const uploaded = useRef(onUploaded);
  uploaded.current = onUploaded;

  const update = useCallback((key: string, patch: Partial<UploadItem>) => {
    setItems((list) => list.map((item) => (item.key === key ? { ...item, ...patch } : item)));
  }, []);

  const pump = useCallback(() => {
    while (active.current < PARALLEL_UPLOADS && queue.current.length > 0) {
      const next = queue.current.shift();
      if (!next) break;
      const { key, file } = next;
      const controller = new AbortController();
      controllers.current.add(controller);
      active.current += 1;
      update(key, { phase: "uploading" });
      uploadDocument(file, {
        signal: controller.signal,
        onProgress: ({ loaded, total }) => update(key, { loaded, total }),
      })
        .then((document) => {
          update(key, { phase: "uploaded", documentId: document.id, loaded: file.size });
          uploaded.current();
        })
        .catch((error: unknown) => {
          if (isApiError(error) && error.isAborted) return;
          update(key, {
            phase: "refused",
            message: isApiError(error) ? error.message : "The upload failed. Please try again.",
          });
        })
        .finally(() => {
          controllers.current.delete(controller);
          active.current -= 1;
          pump();
        });
    }
  }, [update]);

  const add = useCallback(
    (files: readonly File[]) => {
      if (files.length === 0) return;
      const added = files.map((file) => {
        counter += 1;
        const key = `upload-${counter}`;
        queue.current.push({ key, file });
        return {
          key,
          fileName: file.name,
          size: file.size,
          phase: "waiting" as const,
          loaded: 0,
          total: file.size,
          documentId: null,
          message: null,
        };
      });
      setItems((list) => [...added, ...list]);
      pump();
    },
    [pump],
  );

  /** Removes the rows whose upload is over (the documents stay in the list below). */
  const clearFinished = useCallback(() => {
    setItems((list) =>
      list.filter((item) => item.phase === "waiting" || item.phase === "uploading"),
    );
  }, []);

  // Leaving the screen stops what is still being sent; nothing half-sent is kept.
  useEffect(() => {
    const running = controllers.current;
    const waiting = queue.current;
    return () => {
      waiting.length = 0;
      for (const controller of running) controller.abort();
    };
  }, []);

  return { items, add, clearFinished };
}
