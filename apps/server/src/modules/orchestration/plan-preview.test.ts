import { parsePartialJson } from "ai";
import { describe, expect, it } from "vitest";
import { draftOf } from "./plan-preview";

const PLAN = JSON.stringify({
  rationale: "Frame it, then build it.",
  steps: [
    { id: "s1", role: "strategist", task: "Frame the scope", dependsOn: [] },
    { id: "s2", role: "coder", task: "Build the API", dependsOn: ["s1"] },
  ],
});

/** What the preview shows of the plan's JSON cut after `chars` characters. */
async function shownAt(chars: number) {
  return draftOf((await parsePartialJson(PLAN.slice(0, chars))).value);
}

describe("the plan's preview (decision 079)", () => {
  it("shows nothing before the rationale's first character, then its words", async () => {
    expect(await shownAt(3)).toEqual({ rationale: "", steps: [] });
    expect(await shownAt(PLAN.indexOf("Frame") + 5)).toEqual({ rationale: "Frame", steps: [] });
  });

  it("shows a step once its role is complete, then its task as it grows", async () => {
    const role = PLAN.indexOf('"strategist"');
    expect((await shownAt(role + 6)).steps).toEqual([]);
    expect((await shownAt(role + 11)).steps).toEqual([{ role: "strategist", task: "" }]);
    const task = PLAN.indexOf("Frame the scope");
    expect((await shownAt(task + 5)).steps).toEqual([{ role: "strategist", task: "Frame" }]);
  });

  it("grows without ever taking back what it showed", async () => {
    let before = await shownAt(0);
    for (let chars = 1; chars <= PLAN.length; chars++) {
      const now = await shownAt(chars);
      expect(now.rationale.startsWith(before.rationale)).toBe(true);
      expect(now.steps.length).toBeGreaterThanOrEqual(before.steps.length);
      before.steps.forEach((step, i) => {
        expect(now.steps[i]?.role).toBe(step.role);
        expect(now.steps[i]?.task.startsWith(step.task)).toBe(true);
      });
      before = now;
    }
    expect(before).toEqual({
      rationale: "Frame it, then build it.",
      steps: [
        { role: "strategist", task: "Frame the scope" },
        { role: "coder", task: "Build the API" },
      ],
    });
  });

  it("reads anything that is not a plan as an empty draft", () => {
    expect(draftOf(undefined)).toEqual({ rationale: "", steps: [] });
    expect(draftOf([1, 2])).toEqual({ rationale: "", steps: [] });
    expect(draftOf({ rationale: 3, steps: [{ role: "pilot", task: "Fly" }] })).toEqual({
      rationale: "",
      steps: [],
    });
  });
});
