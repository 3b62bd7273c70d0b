import { describe, expect, it } from "vitest";
import { simulatedMemoryLines } from "./propose-memory-lines";

const SYSTEM = "You keep … pick at most 5 facts and preferences worth remembering about the user …";
const turn = (request: string, known: string[] = []) =>
  [
    `The user's request:\n${request}`,
    "---\nThe team's final answer:\nThe answer.",
    ...(known.length > 0
      ? [`---\nAlready remembered:\n${known.map((k) => `- ${k}`).join("\n")}`]
      : []),
  ].join("\n\n");
const lines = (text: string | null) =>
  (text ?? "")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe("the simulator's memory call", () => {
  it("answers only the memory call", () => {
    expect(simulatedMemoryLines("You are the Coder.", turn("Write a parser"))).toBeNull();
  });

  it("keeps what the user says about themselves, in the second person, and the task's subject", () => {
    const answer = simulatedMemoryLines(
      SYSTEM,
      turn(
        "My name is Ada Byron. I am a pastry chef and we use Shopify. I prefer short answers. Plan a spring menu for my bakery.",
      ),
    );
    expect(lines(answer)).toEqual([
      { kind: "fact", text: "Your name is Ada Byron." },
      { kind: "fact", text: "You are a pastry chef." },
      { kind: "fact", text: "You use Shopify." },
      { kind: "preference", text: "You prefer short answers." },
      { kind: "fact", text: expect.stringMatching(/^You asked the team about .*spring menu/) },
    ]);
    expect(simulatedMemoryLines(SYSTEM, turn("I prefer tea. Plan a menu."))).toBe(
      simulatedMemoryLines(SYSTEM, turn("I prefer tea. Plan a menu.")),
    );
  });

  it("leaves out lines that open like one already remembered", () => {
    const answer = simulatedMemoryLines(
      SYSTEM,
      turn("I prefer tea. Plan a menu.", ["You prefer tea with milk."]),
    );
    expect(lines(answer).map((l) => l.text)).toEqual([
      expect.stringMatching(/^You asked the team/),
    ]);
  });
});
