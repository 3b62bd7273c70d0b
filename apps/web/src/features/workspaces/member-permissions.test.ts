// @vitest-environment node
import { describe, expect, it } from "vitest";
import { assignableRoles, canManage, canRemoveMember } from "./member-permissions";

describe("member permissions", () => {
  it("lets owners give any role to anyone", () => {
    expect(assignableRoles("owner", "admin")).toEqual(["owner", "admin", "member", "viewer"]);
    expect(canRemoveMember("owner", "owner")).toBe(true);
  });

  it("lets admins manage members and viewers only", () => {
    expect(assignableRoles("admin", "viewer")).toEqual(["member", "viewer"]);
    expect(assignableRoles("admin", "admin")).toEqual([]);
    expect(assignableRoles("admin", "owner")).toEqual([]);
    expect(canRemoveMember("admin", "member")).toBe(true);
    expect(canRemoveMember("admin", "admin")).toBe(false);
  });

  it("gives members and viewers no management controls", () => {
    expect(assignableRoles("member", "viewer")).toEqual([]);
    expect(canRemoveMember("viewer", "member")).toBe(false);
    expect(canManage("member")).toBe(false);
    expect(canManage("admin")).toBe(true);
  });
});
