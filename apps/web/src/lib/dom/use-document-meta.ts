import { useEffect } from "react";

export const SITE_NAME = "Cohort";

export interface DocumentMeta {
  /** The page's own title; " — Cohort" is appended unless `exactTitle` is set. */
  title: string;
  exactTitle?: boolean;
  description?: string;
  /** Adds `<meta name="robots" content="noindex">` while the page is mounted. */
  noindex?: boolean;
}

export function formatDocumentTitle(title: string, exact = false): string {
  return exact ? title : `${title} — ${SITE_NAME}`;
}

/** Sets the document title, description and robots directive for as long as a page is shown. */
export function useDocumentMeta({
  title,
  exactTitle = false,
  description,
  noindex = false,
}: DocumentMeta) {
  useEffect(() => {
    document.title = formatDocumentTitle(title, exactTitle);
  }, [title, exactTitle]);

  useEffect(() => {
    if (description === undefined) return;
    let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
    const created = meta === null;
    if (meta === null) {
      meta = document.createElement("meta");
      meta.name = "description";
      document.head.append(meta);
    }
    const previous = meta.content;
    meta.content = description;
    return () => {
      if (created) meta.remove();
      else meta.content = previous;
    };
  }, [description]);

  // One robots tag: the server already puts one into a 404 answer (platform/spa.ts), which
  // this takes over, and removes once the page is left, like one it made itself.
  useEffect(() => {
    if (!noindex) return;
    const meta =
      document.head.querySelector<HTMLMetaElement>('meta[name="robots"]') ??
      document.createElement("meta");
    meta.name = "robots";
    meta.content = "noindex";
    if (!meta.isConnected) document.head.append(meta);
    return () => meta.remove();
  }, [noindex]);
}
