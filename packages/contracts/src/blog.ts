import { z } from "zod";

/**
 * The blog (docs/decisions/030): posts are markdown files in apps/web/src/content/blog; the
 * web build writes their list to `BLOG_INDEX_FILE` in its output, from which the server
 * answers /blog/{slug} (200 or 404) and writes the RSS feed at `BLOG_FEED_PATH`.
 */
export const BLOG_INDEX_FILE = "blog/posts.json";
export const BLOG_FEED_PATH = "/blog/rss.xml";

/** A post's file name without `.md`: lowercase words joined by hyphens. */
export const BLOG_SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export const ZBlogPostMeta = z.object({
  slug: z.string().regex(BLOG_SLUG_PATTERN),
  title: z.string().min(1),
  /** Publication day, YYYY-MM-DD. */
  date: z.iso.date(),
  summary: z.string().min(1),
});
export type TBlogPostMeta = z.infer<typeof ZBlogPostMeta>;

/** Newest first. */
export const ZBlogIndex = z.object({ posts: z.array(ZBlogPostMeta) });
export type TBlogIndex = z.infer<typeof ZBlogIndex>;

/**
 * One blog post file: `<slug>.md`, a front matter block of `key: value` lines (title, date,
 * summary) between `---` lines, then the Markdown body. Read by the web app and by its build,
 * which lists the posts for the server (apps/web/vite.config.ts). A file breaking these rules
 * fails the build with its name.
 */
export interface TBlogPost extends TBlogPostMeta {
  body: string;
  readingMinutes: number;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;
const WORDS_PER_MINUTE = 220;

export function slugOfFile(path: string): string {
  return (path.split("/").pop() ?? path).replace(/\.md$/, "");
}

/** ZBlogPostMeta's checks by hand: the blog's pages read posts without shipping zod. */
function checkMeta(path: string, fields: Record<string, string | undefined>): TBlogPostMeta {
  const { slug = "", title = "", date = "", summary = "" } = fields;
  const problems = [
    BLOG_SLUG_PATTERN.test(slug) ? null : `slug "${slug}" must be lowercase words joined by -`,
    title ? null : "title is missing",
    /^\d{4}-\d{2}-\d{2}$/.test(date) && !Number.isNaN(Date.parse(date))
      ? null
      : `date "${date}" must be YYYY-MM-DD`,
    summary ? null : "summary is missing",
  ].filter((problem) => problem !== null);
  if (problems.length > 0) throw new Error(`${path}: ${problems.join("; ")}`);
  return { slug, title, date, summary };
}

export function parseBlogPost(path: string, text: string): TBlogPost {
  const match = FRONT_MATTER.exec(text);
  if (!match) throw new Error(`${path}: a blog post starts with a --- front matter block`);
  const fields: Record<string, string> = {};
  for (const line of (match[1] ?? "").split(/\r?\n/)) {
    if (!line.trim()) continue;
    const colon = line.indexOf(":");
    if (colon < 1) throw new Error(`${path}: front matter line "${line}" is not "key: value"`);
    fields[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  const meta = checkMeta(path, { ...fields, slug: slugOfFile(path) });
  const body = (match[2] ?? "").trim();
  const words = body.split(/\s+/).filter(Boolean).length;
  return { ...meta, body, readingMinutes: Math.max(1, Math.ceil(words / WORDS_PER_MINUTE)) };
}

/** Newest first; posts of one day in title order. */
export function sortPosts<T extends TBlogPostMeta>(posts: readonly T[]): T[] {
  return [...posts].sort((a, b) => b.date.localeCompare(a.date) || a.title.localeCompare(b.title));
}
