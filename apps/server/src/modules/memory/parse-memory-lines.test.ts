import { describe, expect, it } from "vitest";
import { parseMemoryLines } from "./parse-memory-lines";
import { anyWordQuery } from "./search-query";

describe("parseMemoryLines", () => {
  it("reads JSON lines as asked", () => {
    expect(
      parseMemoryLines(
        '{"kind":"preference","text":"You prefer short answers."}\n{"kind":"fact","text":"Your shop sells bread."}',
      ),
    ).toEqual([
      { kind: "preference", text: "You prefer short answers." },
      { kind: "fact", text: "Your shop sells bread." },
    ]);
  });

  it("reads a fenced JSON array, list markers and prose around the objects", () => {
    expect(
      parseMemoryLines('```json\n[{"kind":"fact","text":"A"},{"kind":"fact","text":"B"}]\n```'),
    ).toEqual([
      { kind: "fact", text: "A" },
      { kind: "fact", text: "B" },
    ]);
    expect(
      parseMemoryLines(
        'Here you go:\n- {"kind":"preference","text":"You like tea."}\n2. {"kind":"fact","text":"You live in Oslo."} (new)',
      ),
    ).toEqual([
      { kind: "preference", text: "You like tea." },
      { kind: "fact", text: "You live in Oslo." },
    ]);
  });

  it("skips what is not a memory, makes each one line, cuts long ones, keeps at most five", () => {
    const lines = [
      "not json",
      '{"kind":"fact"}',
      '{"kind":"opinion","text":"  Two\\n lines  "}',
      '{"kind":"fact","text":"two LINES"}',
      `{"kind":"fact","text":"${"word ".repeat(100)}"}`,
      ...["C", "D", "E", "F"].map((t) => `{"kind":"fact","text":"${t}"}`),
    ];
    const parsed = parseMemoryLines(lines.join("\n"));
    expect(parsed).toHaveLength(5);
    expect(parsed[0]).toEqual({ kind: "fact", text: "Two lines" });
    expect(parsed[1]?.text.length).toBeLessThanOrEqual(300);
    expect(parsed[1]?.text.endsWith("word…")).toBe(true);
    expect(parsed.map((p) => p.text).slice(2)).toEqual(["C", "D", "E"]);
  });

  it("returns nothing for an empty or unusable answer", () => {
    expect(parseMemoryLines("")).toEqual([]);
    expect(parseMemoryLines("Nothing worth remembering.")).toEqual([]);
  });
});

describe("anyWordQuery", () => {
  it("ORs the words, letters and digits only, so no text breaks to_tsquery", () => {
    expect(anyWordQuery("Use Postgres 17 & React!")).toBe("use | postgres | 17 | react");
    expect(anyWordQuery("postg", { prefix: true })).toBe("postg:*");
    expect(anyWordQuery("' OR 1=1 -- :* & |")).toBe("or");
    expect(anyWordQuery("!!!")).toBeNull();
  });
});
