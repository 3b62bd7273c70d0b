import { parseBlogPost, sortPosts, type TBlogPost } from "@cohort/contracts";

const files = import.meta.glob<string>("../../content/blog/*.md", {
  query: "?raw",
  import: "default",
  eager: true,
});

/** The posts in content/blog, newest first. */
export const POSTS: readonly TBlogPost[] = sortPosts(
  Object.entries(files).map(([path, text]) => parseBlogPost(path, text)),
);

export function findPost(slug: string): TBlogPost | undefined {
  return POSTS.find((post) => post.slug === slug);
}
