// @vitest-environment node
import { describe, expect, it } from "vitest";
import { describeStorage } from "./storage-view";

function fakeStorage(entries: Record<string, string>) {
  const keys = Object.keys(entries);
  return {
    length: keys.length,
    key: (i: number) => keys[i] ?? null,
    getItem: (key: string) => entries[key] ?? null,
    setItem: () => {},
    removeItem: () => {},
  };
}

describe("describeStorage", () => {
  it("shows non-secret values and hides the CSRF token and secret-looking keys", () => {
    const rows = describeStorage(
      fakeStorage({
        csrfToken: "abc.def",
        authToken: "cookie-sign-in",
        userProfile: "x".repeat(200),
        openaiApiKey: "sk-123",
      }),
    );
    expect(rows).toEqual([
      { key: "authToken", value: "cookie-sign-in" },
      { key: "csrfToken", value: "(hidden, 7 characters)" },
      { key: "openaiApiKey", value: "(hidden, 6 characters)" },
      { key: "userProfile", value: `${"x".repeat(160)}… (200 characters)` },
    ]);
  });
});
