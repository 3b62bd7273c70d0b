import { describe, expect, it } from "vitest";
import { MCP_SLUG_MAX, mcpSlug, mcpToolName } from "./mcp-servers";

describe("mcpSlug", () => {
  it.each([
    ["My Notes", "my-notes"],
    ["GitHub (work)", "github-work"],
    ["  --Ünïcode__server--  ", "unicode__server"],
    ["日本語", "server"],
    ["a very long server name that goes on", "a-very-long-server-n"],
    ["twenty-characters-x-", "twenty-characters-x"],
  ])("%j → %j", (name, slug) => {
    expect(mcpSlug(name)).toBe(slug);
    expect(mcpSlug(name).length).toBeLessThanOrEqual(MCP_SLUG_MAX);
  });

  it("names tools mcp__<slug>__<tool>", () => {
    expect(mcpToolName("notes", "list_notes")).toBe("mcp__notes__list_notes");
  });
});
