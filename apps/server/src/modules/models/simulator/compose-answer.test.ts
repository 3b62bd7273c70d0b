import { describe, expect, it } from "vitest";
import { topicOf } from "./compose-answer";

describe("topicOf", () => {
  it("titles the answer after the user's request, not the prompt's own sections", () => {
    const prompt = "Build a landing page for a recipe app.\n\n---\nYour task:\nWrite the code.";
    expect(topicOf(prompt)).toBe("Build a landing page for a recipe app");
  });

  it("shortens a long first sentence at a word boundary", () => {
    const topic = topicOf(`Design ${"a very long request ".repeat(10)}`);
    expect(topic.length).toBeLessThanOrEqual(81);
    expect(topic.endsWith("…")).toBe(true);
  });
});
