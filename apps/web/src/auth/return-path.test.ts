// @vitest-environment node
import { describe, expect, it } from "vitest";
import { returnPathFrom } from "./return-path";

describe("returnPathFrom", () => {
  it("keeps the protected page and its query, so an invitation link survives signing in", () => {
    expect(returnPathFrom({ from: "/dashboard?invite=abc" })).toBe("/dashboard?invite=abc");
    expect(returnPathFrom({ from: "/chat/42" })).toBe("/chat/42");
  });

  it("falls back to the dashboard for anything that is not an in-app path", () => {
    expect(returnPathFrom(null)).toBe("/dashboard");
    expect(returnPathFrom({})).toBe("/dashboard");
    expect(returnPathFrom({ from: 3 })).toBe("/dashboard");
    expect(returnPathFrom({ from: "https://evil.example/" })).toBe("/dashboard");
    expect(returnPathFrom({ from: "//evil.example/" })).toBe("/dashboard");
    expect(returnPathFrom({ from: "/\\evil.example" })).toBe("/dashboard");
    expect(returnPathFrom({ from: "/login" })).toBe("/dashboard");
  });
});
