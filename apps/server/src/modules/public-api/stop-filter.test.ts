import { describe, expect, it } from "vitest";
import { createStopFilter } from "./stop-filter";

function run(stops: string[], deltas: string[]) {
  const filter = createStopFilter(stops);
  const shown = deltas.map((d) => filter.push(d));
  return { shown, rest: filter.flush(), stopped: filter.stopped };
}

describe("stop filter", () => {
  it("lets everything through without stops", () => {
    expect(run([], ["a", "b"])).toEqual({ shown: ["a", "b"], rest: "", stopped: false });
  });

  it("cuts before a stop split across deltas and shows nothing after it", () => {
    const result = run(["END"], ["one two E", "N", "D three", " four"]);
    expect(result.shown.join("")).toBe("one two ");
    expect(result.rest).toBe("");
    expect(result.stopped).toBe(true);
  });

  it("holds back only what could start a stop, and gives it back at the end", () => {
    const result = run(["\n\n", "STOP"], ["abcdef S", "T"]);
    expect(result.shown).toEqual(["abcde", "f"]);
    expect(result.rest).toBe(" ST");
    expect(result.stopped).toBe(false);
  });

  it("uses the earliest of several stops", () => {
    expect(run(["b", "a"], ["xxab"]).shown).toEqual(["xx"]);
  });
});
