// @vitest-environment node
import { describe, expect, it } from "vitest";
import { MemoryStorage } from "../test-support/memory-storage";
import {
  appendNavigationEntry,
  readNavigationHistory,
  recordNavigation,
} from "./navigation-history";

describe("navigation history", () => {
  it("keeps the last 20 entries of path, time, search and state", () => {
    let history = appendNavigationEntry([], { path: "/", time: 1, search: "", state: null });
    for (let i = 2; i <= 25; i++) {
      history = appendNavigationEntry(history, {
        path: `/p${i}`,
        time: i,
        search: `?i=${i}`,
        state: { i },
      });
    }
    expect(history).toHaveLength(20);
    expect(history[0]).toEqual({ path: "/p6", time: 6, search: "?i=6", state: { i: 6 } });
    expect(history.at(-1)?.path).toBe("/p25");
  });

  it("stores the history in sessionStorage under navigationHistory", () => {
    const session = new MemoryStorage();
    recordNavigation(session, { path: "/login", time: 10, search: "?error=google", state: null });
    recordNavigation(session, {
      path: "/dashboard",
      time: 20,
      search: "",
      state: { from: "/login" },
    });
    expect(JSON.parse(session.getItem("navigationHistory") ?? "[]")).toEqual([
      { path: "/login", time: 10, search: "?error=google", state: null },
      { path: "/dashboard", time: 20, search: "", state: { from: "/login" } },
    ]);
    expect(readNavigationHistory(session)).toHaveLength(2);
  });

  it("survives unreadable storage and unstorable state", () => {
    const session = new MemoryStorage();
    session.setItem("navigationHistory", "{not json");
    expect(readNavigationHistory(session)).toEqual([]);
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    recordNavigation(session, { path: "/x", time: 1, search: "", state: cyclic });
    expect(readNavigationHistory(session)).toEqual([
      { path: "/x", time: 1, search: "", state: null },
    ]);
    expect(readNavigationHistory(null)).toEqual([]);
  });
});
