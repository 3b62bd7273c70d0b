import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { BLOG_INDEX_FILE, type TBlogPostMeta, ZBlogIndex } from "@cohort/contracts";

export type BlogFeedPost = TBlogPostMeta;

/**
 * The posts the web build found (its `blog/posts.json`), newest first; none when the app is
 * not built. A malformed list is a broken build: it stops the start-up with the reason.
 */
export function readBlogPosts(webDistDir: string): readonly TBlogPostMeta[] {
  const file = path.join(webDistDir, BLOG_INDEX_FILE);
  if (!existsSync(file)) return [];
  const parsed = ZBlogIndex.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) {
    throw new Error(`${file} is not a valid blog index: ${parsed.error.message}`);
  }
  return parsed.data.posts;
}

const XML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

function xml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char);
}

/** RSS 2.0 wants RFC 822 dates; a post's day is taken at noon UTC. */
function rfc822(day: string): string {
  return new Date(`${day}T12:00:00Z`).toUTCString();
}

/** The RSS 2.0 feed of the blog, with absolute links on `publicUrl`. */
export function renderBlogFeed(posts: readonly TBlogPostMeta[], publicUrl: string): string {
  const blogUrl = `${publicUrl}/blog`;
  const items = posts.map((post) => {
    const link = `${blogUrl}/${post.slug}`;
    return [
      "    <item>",
      `      <title>${xml(post.title)}</title>`,
      `      <link>${xml(link)}</link>`,
      `      <guid isPermaLink="true">${xml(link)}</guid>`,
      `      <pubDate>${rfc822(post.date)}</pubDate>`,
      `      <description>${xml(post.summary)}</description>`,
      "    </item>",
    ].join("\n");
  });
  const newest = posts[0];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    "  <channel>",
    "    <title>Cohort blog</title>",
    `    <link>${xml(blogUrl)}</link>`,
    `    <atom:link href="${xml(`${blogUrl}/rss.xml`)}" rel="self" type="application/rss+xml" />`,
    "    <description>How Cohort works, from the team that builds it.</description>",
    "    <language>en</language>",
    ...(newest ? [`    <lastBuildDate>${rfc822(newest.date)}</lastBuildDate>`] : []),
    ...items,
    "  </channel>",
    "</rss>",
    "",
  ].join("\n");
}
