// @vitest-environment node
import { describe, expect, it } from "vitest";
import { MemoryStorage } from "../test-support/memory-storage";
import {
  guardLoginRedirect,
  INITIAL_LOGIN_REDIRECT_STATE,
  type LoginRedirectState,
  readLoginRedirectState,
  registerLoginRedirect,
  resetLoginRedirectState,
} from "./redirect-loop-guard";

function run(times: number[]): boolean[] {
  let state: LoginRedirectState = INITIAL_LOGIN_REDIRECT_STATE;
  return times.map((now) => {
    const verdict = registerLoginRedirect(state, now);
    state = verdict.state;
    return verdict.allowed;
  });
}

describe("login redirect-loop guard", () => {
  it("allows 3 quick redirects and blocks the 4th within 2 s of the last", () => {
    expect(run([0, 500, 1_000, 1_500])).toEqual([true, true, true, false]);
  });

  it("measures the window from the last redirect, not the first", () => {
    // Each one 1.9 s after the previous: 5.7 s in all, still a loop.
    expect(run([0, 1_900, 3_800, 5_700])).toEqual([true, true, true, false]);
  });

  it("starts over when 2 s have passed since the last redirect", () => {
    expect(run([0, 100, 200, 2_200, 2_300, 2_400])).toEqual([true, true, true, true, true, true]);
    expect(run([0, 100, 200, 300, 2_300])).toEqual([true, true, true, false, true]);
  });

  it("keeps its state in sessionStorage and clears authToken and userProfile when it blocks", () => {
    const session = new MemoryStorage();
    const local = new MemoryStorage();
    local.setItem("authToken", "cookie-sign-in");
    local.setItem("userProfile", '{"id":"u1"}');
    local.setItem("unrelated", "kept");
    session.setItem("userProfile", '{"id":"u1"}');

    for (const now of [10_000, 10_400, 10_800]) {
      expect(guardLoginRedirect({ session, local }, now).allowed).toBe(true);
    }
    expect(session.getItem("loginRedirectCount")).toBe("3");
    expect(session.getItem("lastLoginRedirect")).toBe("10800");
    expect(local.getItem("authToken")).toBe("cookie-sign-in");

    expect(guardLoginRedirect({ session, local }, 11_200).allowed).toBe(false);
    expect(local.getItem("authToken")).toBeNull();
    expect(local.getItem("userProfile")).toBeNull();
    expect(session.getItem("userProfile")).toBeNull();
    expect(local.getItem("unrelated")).toBe("kept");
    expect(readLoginRedirectState(session)).toEqual({ count: 4, lastAt: 11_200 });

    resetLoginRedirectState(session);
    expect(readLoginRedirectState(session)).toEqual({ count: 0, lastAt: null });
  });

  it("treats unreadable stored values as a fresh start", () => {
    const session = new MemoryStorage();
    session.setItem("loginRedirectCount", "lots");
    session.setItem("lastLoginRedirect", "yesterday");
    expect(readLoginRedirectState(session)).toEqual({ count: 0, lastAt: null });
    expect(guardLoginRedirect({ session, local: null }, 5).allowed).toBe(true);
  });
});
