import {
  type TChangeMemberRole,
  type TCreateInvitation,
  type TCreateWorkspace,
  type TDeleteWorkspace,
  type TInvitationPreview,
  type TRenameWorkspace,
  type TSetMemberCap,
  type TWorkspace,
  type TWorkspaceAuditPage,
  type TWorkspaceCredits,
  type TWorkspaceInvitation,
  type TWorkspaceInvitationList,
  type TWorkspaceList,
  type TWorkspaceMember,
  type TWorkspaceMemberList,
  type TWorkspaceOne,
  type TWorkspaceRole,
  type TWorkspaceUsage,
  WORKSPACE_CREDIT_ROUTES,
  WORKSPACE_ROUTES,
} from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api/api";

/**
 * The workspace calls (decision 040; payloads from contracts/workspaces.ts and
 * workspace-credits.ts), with their query keys. The client adds the /api prefix.
 */
const path = (route: string) => route.replace(/^\/api/, "");
const id = encodeURIComponent;

export const workspaceKeys = {
  all: ["workspaces"] as const,
  list: ["workspaces", "list"] as const,
  members: (workspaceId: string) => ["workspaces", workspaceId, "members"] as const,
  invitations: (workspaceId: string) => ["workspaces", workspaceId, "invitations"] as const,
  audit: (workspaceId: string) => ["workspaces", workspaceId, "audit"] as const,
  credits: (workspaceId: string) => ["workspaces", workspaceId, "credits"] as const,
  usage: (workspaceId: string) => ["workspaces", workspaceId, "usage"] as const,
  invitation: (token: string) => ["invitations", token] as const,
};

export async function listWorkspaces(signal?: AbortSignal): Promise<TWorkspace[]> {
  return (await api.get<TWorkspaceList>(path(WORKSPACE_ROUTES.list), { signal })).workspaces;
}

export function useWorkspaceList(enabled: boolean) {
  return useQuery({
    queryKey: workspaceKeys.list,
    queryFn: ({ signal }) => listWorkspaces(signal),
    enabled,
    staleTime: 60_000,
  });
}

export async function createWorkspace(name: string): Promise<TWorkspace> {
  const body: TCreateWorkspace = { name };
  return (await api.post<TWorkspaceOne>(path(WORKSPACE_ROUTES.list), body)).workspace;
}

export async function renameWorkspace(workspaceId: string, name: string): Promise<TWorkspace> {
  const body: TRenameWorkspace = { name };
  return (await api.patch<TWorkspaceOne>(path(WORKSPACE_ROUTES.one(id(workspaceId))), body))
    .workspace;
}

/** Deleting drops everything in the team, so the server wants its name typed again. */
export async function deleteWorkspace(workspaceId: string, confirmName: string): Promise<void> {
  const body: TDeleteWorkspace = { confirm_name: confirmName };
  await api.delete(path(WORKSPACE_ROUTES.one(id(workspaceId))), { body });
}

export function useMembers(workspaceId: string) {
  return useQuery({
    queryKey: workspaceKeys.members(workspaceId),
    queryFn: ({ signal }) =>
      api.get<TWorkspaceMemberList>(path(WORKSPACE_ROUTES.members(id(workspaceId))), { signal }),
    select: (data) => data.members,
  });
}

export async function changeMemberRole(
  workspaceId: string,
  userId: string,
  role: TWorkspaceRole,
): Promise<TWorkspaceMember> {
  const body: TChangeMemberRole = { role };
  return (
    await api.patch<{ member: TWorkspaceMember }>(
      path(WORKSPACE_ROUTES.member(id(workspaceId), id(userId))),
      body,
    )
  ).member;
}

/** Removes a member; with the caller's own id it is "Leave workspace". */
export async function removeMember(workspaceId: string, userId: string): Promise<void> {
  await api.delete(path(WORKSPACE_ROUTES.member(id(workspaceId), id(userId))));
}

export function useInvitations(workspaceId: string, enabled: boolean) {
  return useQuery({
    queryKey: workspaceKeys.invitations(workspaceId),
    queryFn: ({ signal }) =>
      api.get<TWorkspaceInvitationList>(path(WORKSPACE_ROUTES.invitations(id(workspaceId))), {
        signal,
      }),
    select: (data) => data.invitations,
    enabled,
  });
}

export async function inviteMember(
  workspaceId: string,
  body: TCreateInvitation,
): Promise<TWorkspaceInvitation> {
  return (
    await api.post<{ invitation: TWorkspaceInvitation }>(
      path(WORKSPACE_ROUTES.invitations(id(workspaceId))),
      body,
    )
  ).invitation;
}

export async function revokeInvitation(workspaceId: string, invitationId: string): Promise<void> {
  await api.delete(path(WORKSPACE_ROUTES.invitation(id(workspaceId), id(invitationId))));
}

export function useAuditLog(workspaceId: string, enabled: boolean) {
  return useQuery({
    queryKey: workspaceKeys.audit(workspaceId),
    queryFn: ({ signal }) =>
      api.get<TWorkspaceAuditPage>(path(WORKSPACE_ROUTES.audit(id(workspaceId))), {
        query: { limit: 50 },
        signal,
      }),
    enabled,
  });
}

export function fetchInvitationPreview(
  token: string,
  signal?: AbortSignal,
): Promise<TInvitationPreview> {
  return api.get<TInvitationPreview>(path(WORKSPACE_ROUTES.invitationPreview(token)), { signal });
}

export async function acceptInvitation(token: string): Promise<TWorkspace> {
  return (await api.post<TWorkspaceOne>(path(WORKSPACE_ROUTES.acceptInvitation(token)))).workspace;
}

export function useWorkspaceCredits(workspaceId: string | null) {
  return useQuery({
    queryKey: workspaceKeys.credits(workspaceId ?? ""),
    queryFn: ({ signal }) =>
      api.get<TWorkspaceCredits>(path(WORKSPACE_CREDIT_ROUTES.credits(id(workspaceId ?? ""))), {
        signal,
      }),
    enabled: workspaceId !== null,
  });
}

export function useWorkspaceUsage(workspaceId: string, enabled: boolean) {
  return useQuery({
    queryKey: workspaceKeys.usage(workspaceId),
    queryFn: ({ signal }) =>
      api.get<TWorkspaceUsage>(path(WORKSPACE_CREDIT_ROUTES.usage(id(workspaceId))), { signal }),
    enabled,
  });
}

export async function setMemberCap(
  workspaceId: string,
  userId: string,
  monthlyCap: number | null,
): Promise<void> {
  const body: TSetMemberCap = { monthly_cap_credits: monthlyCap };
  await api.put(path(WORKSPACE_CREDIT_ROUTES.memberCap(id(workspaceId), id(userId))), body);
}
