import { describe, expect, it } from "vitest";
import { isNavLinkActive, matchAppRoute } from "./routes";

describe("matchAppRoute", () => {
  it("matches fixed paths, with or without a trailing slash or query", () => {
    expect(matchAppRoute("/")?.route.path).toBe("/");
    expect(matchAppRoute("/billing/")?.route.path).toBe("/billing");
    expect(matchAppRoute("/login?next=/chat")?.route.path).toBe("/login");
  });

  it("treats the chat session id as optional", () => {
    expect(matchAppRoute("/chat")?.params).toEqual({});
    expect(matchAppRoute("/chat/s-1")?.params).toEqual({ sessionId: "s-1" });
    expect(matchAppRoute("/chat/s-1/more")).toBeNull();
  });

  it("accepts only the listed landing-page slugs", () => {
    expect(matchAppRoute("/use-cases/finance")?.params).toEqual({ industry: "finance" });
    expect(matchAppRoute("/use-cases/astrology")).toBeNull();
    expect(matchAppRoute("/compare/claude")).not.toBeNull();
    expect(matchAppRoute("/solutions/developers")).not.toBeNull();
  });

  it("returns null for unknown paths", () => {
    expect(matchAppRoute("/nope")).toBeNull();
    expect(matchAppRoute("/%E0%A4%A")).toBeNull();
  });
});

describe("isNavLinkActive", () => {
  it("highlights an exact match or a sub-path, never a mere prefix", () => {
    expect(isNavLinkActive("/chat", "/chat")).toBe(true);
    expect(isNavLinkActive("/chat", "/chat/abc")).toBe(true);
    expect(isNavLinkActive("/chat", "/chatter")).toBe(false);
    expect(isNavLinkActive("/cochat", "/chat")).toBe(false);
  });
});
