import { z } from "zod";

/**
 * Workspaces (issue 14, decision 040): every session, document, template and memory belongs
 * to one. Each user has a personal workspace whose id is the user's id; team workspaces have
 * members with roles. Access is decided by membership and role in one place on the server;
 * anything in a workspace the caller is not a member of answers 404.
 */

export const WORKSPACE_KINDS = ["personal", "team"] as const;
export type TWorkspaceKind = (typeof WORKSPACE_KINDS)[number];

/** From the most to the least rights. */
export const WORKSPACE_ROLES = ["owner", "admin", "member", "viewer"] as const;
export type TWorkspaceRole = (typeof WORKSPACE_ROLES)[number];
export const ZWorkspaceRole = z.enum(WORKSPACE_ROLES);
/** The roles an invitation can give: owners are made by an owner, in the members list. */
export const INVITABLE_ROLES = ["admin", "member", "viewer"] as const;

/** How much a role may do, to compare roles: viewer 0 … owner 3. */
export function roleRank(role: TWorkspaceRole): number {
  return WORKSPACE_ROLES.length - 1 - WORKSPACE_ROLES.indexOf(role);
}
/** Whether `role` has at least the rights of `least`. */
export function roleAtLeast(role: TWorkspaceRole, least: TWorkspaceRole): boolean {
  return roleRank(role) >= roleRank(least);
}

export const WORKSPACE_NAME_MAX = 80;

export const ZWorkspace = z.object({
  id: z.uuid(),
  kind: z.enum(WORKSPACE_KINDS),
  name: z.string(),
  /** The caller's role in it. */
  role: ZWorkspaceRole,
  member_count: z.number().int(),
  created_at: z.string(),
});
export type TWorkspace = z.infer<typeof ZWorkspace>;

/**
 * Which workspace a list or a new resource is in: `?workspace_id=` on lists, `workspace_id`
 * in a create body. Left out, it is the caller's personal workspace.
 */
export const ZWorkspaceScope = z.object({
  workspace_id: z
    .uuid()
    .optional()
    .describe("The workspace; the caller's personal one if left out"),
});
export type TWorkspaceScope = z.infer<typeof ZWorkspaceScope>;

export const WORKSPACE_ERROR_CODES = {
  /** The caller is a member but the role does not allow this. */
  roleTooLow: "workspace_role_too_low",
} as const;

export const WORKSPACE_MESSAGES = {
  notFound: "This workspace does not exist.",
  viewerReadOnly: "Viewers can read this workspace but not change it.",
  roleTooLow: (least: TWorkspaceRole) => `This needs the ${least} role in the workspace.`,
} as const;

export const WORKSPACE_ROUTES = {
  list: "/api/workspaces",
  one: (id: string) => `/api/workspaces/${id}`,
} as const;
