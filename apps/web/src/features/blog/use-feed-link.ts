import { BLOG_FEED_PATH } from "@cohort/contracts";
import { useEffect } from "react";

/** `<link rel="alternate">` to the RSS feed while a blog page is shown, for feed readers. */
export function useFeedLink(): void {
  useEffect(() => {
    const link = document.createElement("link");
    link.rel = "alternate";
    link.type = "application/rss+xml";
    link.title = "Cohort blog";
    link.href = BLOG_FEED_PATH;
    document.head.append(link);
    return () => link.remove();
  }, []);
}
