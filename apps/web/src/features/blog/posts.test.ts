// @vitest-environment node
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findPost, POSTS } from "./posts";

const contentDir = path.resolve(import.meta.dirname, "../../content/blog");

describe("the blog's posts", () => {
  it("are every Markdown file in content/blog, newest first, each with a real body", () => {
    const files = readdirSync(contentDir).filter((name) => name.endsWith(".md"));
    expect(POSTS.map((post) => `${post.slug}.md`).sort()).toEqual(files.sort());
    const dates = POSTS.map((post) => post.date);
    expect(dates).toEqual([...dates].sort().reverse());
    for (const post of POSTS) expect(post.body.length).toBeGreaterThan(200);
  });

  it("finds a post by its slug, and nothing for any other", () => {
    const first = POSTS[0];
    expect(first && findPost(first.slug)).toBe(first);
    expect(findPost("no-such-post")).toBeUndefined();
  });
});
