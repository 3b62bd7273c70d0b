// @vitest-environment node
import { describe, expect, it } from "vitest";
import { parseBlogPost, sortPosts } from "./blog";

describe("blog post files", () => {
  it("reads the front matter and the body, and estimates the reading time", () => {
    const post = parseBlogPost(
      "content/blog/a-post.md",
      "---\ntitle: Plans: why\ndate: 2026-11-23\nsummary: Short.\n---\n\n# Hello\n\nSome words here.\n",
    );
    expect(post).toEqual({
      slug: "a-post",
      title: "Plans: why",
      date: "2026-11-23",
      summary: "Short.",
      body: "# Hello\n\nSome words here.",
      readingMinutes: 1,
    });
  });

  it("names the file and the problem when a post is malformed", () => {
    expect(() => parseBlogPost("x/no-front.md", "# Just text")).toThrow(
      "x/no-front.md: a blog post starts with a --- front matter block",
    );
    expect(() =>
      parseBlogPost("x/bad-date.md", "---\ntitle: T\ndate: 23/11/2026\nsummary: S\n---\nBody"),
    ).toThrow(/^x\/bad-date\.md: date /);
    expect(() =>
      parseBlogPost("x/Bad Name.md", "---\ntitle: T\ndate: 2026-11-23\nsummary: S\n---\n"),
    ).toThrow(/slug/);
  });

  it("sorts newest first, then by title", () => {
    const meta = (title: string, date: string) => ({ slug: "s", title, date, summary: "s" });
    expect(
      sortPosts([meta("B", "2026-11-01"), meta("Z", "2026-11-23"), meta("A", "2026-11-23")]).map(
        (post) => post.title,
      ),
    ).toEqual(["A", "Z", "B"]);
  });
});
