import { describe, expect, it } from "vitest";
import { conversationPath, forkedSteps } from "./branches";

const user = (id: string, parent: string | null, at: string, shown?: string) => ({
  id,
  role: "user" as const,
  created_at: at,
  parent_run_id: parent,
  ...(shown ? { shown_at: shown } : {}),
});
const run = (id: string, message: string, at: string, shown?: string) => ({
  id,
  message_id: message,
  created_at: at,
  ...(shown ? { shown_at: shown } : {}),
});

describe("conversationPath", () => {
  it("follows the shown version of each message and answer, newest shown first", () => {
    const messages = [
      user("m1", null, "2026-01-01T00:00:01Z"),
      user("m2", "r1", "2026-01-01T00:00:02Z"),
      user("m2b", "r1", "2026-01-01T00:00:04Z"),
      user("m3", "r2", "2026-01-01T00:00:03Z"),
    ];
    const runs = [
      run("r1", "m1", "2026-01-01T00:00:01Z"),
      run("r2", "m2", "2026-01-01T00:00:02Z"),
      run("r3", "m2b", "2026-01-01T00:00:04Z"),
      run("r4", "m3", "2026-01-01T00:00:03Z"),
    ];
    const edited = conversationPath(messages, runs);
    expect(edited.map((t) => [t.message.id, t.run?.id])).toEqual([
      ["m1", "r1"],
      ["m2b", "r3"],
    ]);
    expect(edited[1]?.versions.map((m) => m.id)).toEqual(["m2", "m2b"]);

    // Paged back to the first version: its later turn comes back with it.
    const shownBack = messages.map((m) => (m.id === "m2" ? { ...m, shown_at: "2026-01-02" } : m));
    expect(conversationPath(shownBack, runs).map((t) => t.message.id)).toEqual(["m1", "m2", "m3"]);
  });

  it("shows the newest answer version unless an older one was put on screen since", () => {
    const messages = [user("m1", null, "2026-01-01T00:00:01Z")];
    const runs = [run("r1", "m1", "2026-01-01T00:00:01Z"), run("r2", "m1", "2026-01-01T00:00:05Z")];
    expect(conversationPath(messages, runs)[0]?.run?.id).toBe("r2");
    const back = [run("r1", "m1", "2026-01-01T00:00:01Z", "2026-01-01T00:00:09Z"), runs[1]];
    expect(
      conversationPath(
        messages,
        back.filter((r) => r !== undefined),
      )[0]?.run?.id,
    ).toBe("r1");
  });
});

describe("forkedSteps", () => {
  it("is the step and everything that depends on it, directly or not", () => {
    const steps = [
      { id: "s1", depends_on: [], phase: "agent" },
      { id: "s2", depends_on: ["s1"], phase: "agent" },
      { id: "s3", depends_on: ["s2"], phase: "agent" },
      { id: "s4", depends_on: [], phase: "agent" },
      { id: "s5", depends_on: ["s1", "s4"], phase: "review" },
    ];
    expect([...forkedSteps(steps, "s2")].sort()).toEqual(["s2", "s3"]);
    expect([...forkedSteps(steps, "s1")].sort()).toEqual(["s1", "s2", "s3"]);
    expect([...forkedSteps(steps, "s4")]).toEqual(["s4"]);
  });
});
