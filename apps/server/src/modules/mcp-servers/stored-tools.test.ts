import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { riskOf, storedTools } from "./stored-tools";

const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({
  name,
  inputSchema: { type: "object" },
  ...extra,
});

describe("riskOf", () => {
  it.each([
    [{ readOnlyHint: true }, "read"],
    [{ readOnlyHint: true, destructiveHint: true }, "write"],
    [{ readOnlyHint: false }, "write"],
    [{ destructiveHint: true }, "write"],
    [{ openWorldHint: true }, "external"],
    [undefined, "external"],
  ] as const)("%j → %s", (annotations, risk) => {
    expect(riskOf(tool("t", annotations ? { annotations } : {}))).toBe(risk);
  });
});

describe("storedTools", () => {
  it("caps descriptions, strips control characters and leaves out names that do not fit", () => {
    const kept = storedTools("notes", [
      tool("ok", { description: `a\u0000b\u202ec\n${"x".repeat(2000)}` }),
      tool("has space"),
      tool("x".repeat(60)),
      tool("big", { inputSchema: { type: "object", description: "y".repeat(20_000) } }),
    ]);
    expect(kept.map((t) => t.qualified_name)).toEqual(["mcp__notes__ok"]);
    expect(kept[0]?.description.startsWith("abc\nxxx")).toBe(true);
    expect(kept[0]?.description).toHaveLength(1024);
    expect(kept[0]?.description.endsWith("…")).toBe(true);
    expect(kept[0]?.title).toBe("ok");
  });
});
