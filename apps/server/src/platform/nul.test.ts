import { describe, expect, it } from "vitest";
import { findNul, isKnownNulFree, noteParsedJson } from "./nul";

function parsed(text: string): unknown {
  const value: unknown = JSON.parse(text);
  noteParsedJson(text, value);
  return value;
}

describe("NUL in parsed JSON bodies", () => {
  it("knows a body is NUL-free when its text has no \\u0000 escape", () => {
    const body = parsed('{"logs":[{"message":"fine","data":{"deep":["é"]}}]}');
    expect(isKnownNulFree(body)).toBe(true);
    expect(findNul(body)).toBeNull();
  });

  it("leaves a body with the escape (or an escaped backslash before u0000) to the walk", () => {
    const nul = parsed('{"logs":[{"data":{"deep":["a\\u0000b"]}}]}');
    expect(isKnownNulFree(nul)).toBe(false);
    expect(findNul(nul)).toBe("logs.0.data.deep.0");
    const backslash = parsed('{"note":"C:\\\\u0000"}');
    expect(isKnownNulFree(backslash)).toBe(false);
    expect(findNul(backslash)).toBeNull();
  });

  it("says nothing of values it did not see parsed, nor of scalars", () => {
    expect(isKnownNulFree({ a: "\u0000" })).toBe(false);
    expect(isKnownNulFree(parsed('"text"'))).toBe(false);
  });
});
