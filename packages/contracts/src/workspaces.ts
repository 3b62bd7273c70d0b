import { z } from "zod";
import { ZEmail } from "./auth";

/**
 * Workspaces (decision 040): every session, document, template and memory belongs
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
  /** The caller already belongs to as many team workspaces as one person may create. */
  limitReached: "workspace_limit_reached",
  /** Personal workspaces have one member and cannot be deleted, shared or left. */
  personal: "personal_workspace",
  /** The change would leave the workspace without an owner. */
  lastOwner: "last_owner",
  /** The confirmation typed does not match the workspace's name. */
  confirmMismatch: "confirmation_mismatch",
  alreadyMember: "already_member",
  invitationUsed: "invitation_used",
  invitationExpired: "invitation_expired",
  invitationWrongAccount: "invitation_wrong_account",
  /** Only an address proven by its link may send invitations (decision 052). */
  inviterUnverified: "inviter_email_unverified",
  /** Only a confirmed address may accept an invitation (decision 057). */
  invitationUnverified: "invitation_unverified",
} as const;

/** How many team workspaces one person may have created and still own. */
export const TEAM_WORKSPACES_PER_USER = 20;
/** An invitation link works this long, once. */
export const INVITATION_TTL_DAYS = 7;

/** How a team names someone whose account was deleted: in its usage and its audit log. */
export const DELETED_MEMBER_NAME = "Deleted member";

export const WORKSPACE_MESSAGES = {
  notFound: "This workspace does not exist.",
  viewerReadOnly: "Viewers can read this workspace but not change it.",
  roleTooLow: (least: TWorkspaceRole) => `This needs the ${least} role in the workspace.`,
  limitReached: `You can own at most ${TEAM_WORKSPACES_PER_USER} team workspaces. Delete one you no longer need first.`,
  personalNotDeletable: "Your personal workspace cannot be deleted.",
  personalNoMembers:
    "Your personal workspace is only yours: create a team workspace to invite people.",
  personalNotLeavable: "You cannot leave your personal workspace.",
  lastOwner:
    "A workspace needs at least one owner. Make another member an owner first, or delete the workspace.",
  confirmMismatch: "Type the workspace's name exactly to confirm deleting it.",
  onlyOwnersManageAdmins: "Only owners can make or change admins and owners.",
  onlyOwnersCapAdmins: "Only owners can set the monthly caps of admins and owners.",
  inviterUnverified:
    "Confirm your email address before inviting people: use the link we sent you, or send it again from Settings.",
  memberNotFound: "This person is not a member of the workspace.",
  alreadyMember: (email: string) => `${email} is already a member of this workspace.`,
  invitationNotFound: "This invitation does not exist or was withdrawn. Ask for a new one.",
  invitationUsed: "This invitation has already been used. Ask for a new one if you need it.",
  invitationExpired: "This invitation has expired. Ask the person who invited you for a new one.",
  invitationWrongAccount: (email: string) =>
    `This invitation is for ${email}. Sign in with that address to accept it.`,
  invitationUnverified: (email: string) =>
    `Confirm ${email} first: open the link in the email we sent you, then accept the invitation.`,
} as const;

/** A team workspace's name, as given when creating or renaming it. */
export const ZWorkspaceName = z
  .string()
  .trim()
  .min(1, { error: "Give the workspace a name." })
  .max(WORKSPACE_NAME_MAX, {
    error: `A workspace name is at most ${WORKSPACE_NAME_MAX} characters.`,
  });

export const ZWorkspaceParams = z.object({ id: z.uuid() });
export const ZWorkspaceMemberParams = z.object({ id: z.uuid(), userId: z.uuid() });
export const ZWorkspaceInvitationParams = z.object({ id: z.uuid(), invitationId: z.uuid() });
export const ZInvitationTokenParams = z.object({ token: z.string().min(1).max(200) });

export const ZCreateWorkspace = z.object({ name: ZWorkspaceName });
export type TCreateWorkspace = z.infer<typeof ZCreateWorkspace>;
export const ZRenameWorkspace = z.object({ name: ZWorkspaceName });
export type TRenameWorkspace = z.infer<typeof ZRenameWorkspace>;
/** Deleting a team drops everything in it, so the name must be typed again. */
export const ZDeleteWorkspace = z.object({ confirm_name: z.string() });
export type TDeleteWorkspace = z.infer<typeof ZDeleteWorkspace>;

export const ZWorkspaceList = z.object({ workspaces: z.array(ZWorkspace) });
export type TWorkspaceList = z.infer<typeof ZWorkspaceList>;
export const ZWorkspaceOne = z.object({ workspace: ZWorkspace });
export type TWorkspaceOne = z.infer<typeof ZWorkspaceOne>;
export const ZWorkspaceDeleted = z.object({ deleted: z.literal(true) });

export const ZWorkspaceMember = z.object({
  user_id: z.uuid(),
  email: z.string(),
  display_name: z.string(),
  role: ZWorkspaceRole,
  joined_at: z.string(),
});
export type TWorkspaceMember = z.infer<typeof ZWorkspaceMember>;
export const ZWorkspaceMemberList = z.object({ members: z.array(ZWorkspaceMember) });
export type TWorkspaceMemberList = z.infer<typeof ZWorkspaceMemberList>;
export const ZChangeMemberRole = z.object({ role: ZWorkspaceRole });
export type TChangeMemberRole = z.infer<typeof ZChangeMemberRole>;
/** After a removal or a leave. */
export const ZWorkspaceMemberRemoved = z.object({ removed: z.literal(true) });

export const ZInvitableRole = z.enum(INVITABLE_ROLES);
export type TInvitableRole = z.infer<typeof ZInvitableRole>;
export const ZCreateInvitation = z.object({ email: ZEmail, role: ZInvitableRole });
export type TCreateInvitation = z.infer<typeof ZCreateInvitation>;

/** A pending invitation, as admins see it in the workspace's settings. */
export const ZWorkspaceInvitation = z.object({
  id: z.uuid(),
  email: z.string(),
  role: ZInvitableRole,
  /** The inviter's name; null once their account is gone. */
  invited_by: z.string().nullable(),
  expires_at: z.string(),
  created_at: z.string(),
});
export type TWorkspaceInvitation = z.infer<typeof ZWorkspaceInvitation>;
export const ZWorkspaceInvitationList = z.object({ invitations: z.array(ZWorkspaceInvitation) });
export type TWorkspaceInvitationList = z.infer<typeof ZWorkspaceInvitationList>;
export const ZWorkspaceInvitationOne = z.object({ invitation: ZWorkspaceInvitation });
export const ZWorkspaceInvitationRevoked = z.object({ revoked: z.literal(true) });

/** What the invited person sees before accepting. */
export const ZInvitationPreview = z.object({
  workspace_name: z.string(),
  role: ZInvitableRole,
  invited_by: z.string().nullable(),
  email: z.string(),
  expires_at: z.string(),
});
export type TInvitationPreview = z.infer<typeof ZInvitationPreview>;

/**
 * What a valid invitation link shows signed out, on the sign-up form (decision 057): who
 * invited which address to which workspace, and nothing else.
 */
export const ZInvitationPublicPreview = z.object({
  workspace_name: z.string(),
  invited_by: z.string().nullable(),
  email: z.string(),
});
export type TInvitationPublicPreview = z.infer<typeof ZInvitationPublicPreview>;

export const ZWorkspaceAuditEntry = z.object({
  id: z.number().int(),
  actor_id: z.string().nullable(),
  /** The actor's name; null for the system or a deleted account. */
  actor_name: z.string().nullable(),
  action: z.string(),
  target: z.string(),
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type TWorkspaceAuditEntry = z.infer<typeof ZWorkspaceAuditEntry>;
export const WORKSPACE_AUDIT_PAGE_MAX = 100;
export const ZWorkspaceAuditQuery = z.object({
  /** Entries older than this id (the last `id` of the previous page). */
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(WORKSPACE_AUDIT_PAGE_MAX).default(50),
});
export type TWorkspaceAuditQuery = z.infer<typeof ZWorkspaceAuditQuery>;
export const ZWorkspaceAuditPage = z.object({
  entries: z.array(ZWorkspaceAuditEntry),
  has_more: z.boolean(),
});
export type TWorkspaceAuditPage = z.infer<typeof ZWorkspaceAuditPage>;

export const WORKSPACE_ROUTES = {
  list: "/api/workspaces",
  one: (id: string) => `/api/workspaces/${id}`,
  members: (id: string) => `/api/workspaces/${id}/members`,
  member: (id: string, userId: string) => `/api/workspaces/${id}/members/${userId}`,
  invitations: (id: string) => `/api/workspaces/${id}/invitations`,
  invitation: (id: string, invitationId: string) =>
    `/api/workspaces/${id}/invitations/${invitationId}`,
  audit: (id: string) => `/api/workspaces/${id}/audit`,
  invitationPreview: (token: string) => `/api/invitations/${encodeURIComponent(token)}`,
  acceptInvitation: (token: string) => `/api/invitations/${encodeURIComponent(token)}/accept`,
  publicInvitationPreview: (token: string) =>
    `/api/invitations/${encodeURIComponent(token)}/public`,
} as const;
