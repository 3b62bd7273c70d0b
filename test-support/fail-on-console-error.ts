import { afterEach, beforeEach, vi } from "vitest";

/**
 * A test fails when anything calls console.error unexpectedly (docs/conventions.md, "Tests").
 * A test that expects one calls `expectConsoleError()` first.
 */
let allowed = 0;
let unexpected: unknown[][] = [];
const original = console.error;

export function expectConsoleError(times = 1): void {
  allowed += times;
}

beforeEach(() => {
  allowed = 0;
  unexpected = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    if (allowed > 0) {
      allowed -= 1;
      return;
    }
    unexpected.push(args);
    original(...args);
  });
});

afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (unexpected.length > 0) {
    const first = unexpected[0]?.map(String).join(" ");
    throw new Error(`console.error was called ${unexpected.length} time(s) unexpectedly: ${first}`);
  }
});
