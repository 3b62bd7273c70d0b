import {
  DELETED_MEMBER_NAME,
  ERROR_CODES,
  type TWorkspaceMemberUsage,
  WORKSPACE_CREDIT_ROUTES,
  ZMemberCap,
  ZSetMemberCap,
  ZWorkspaceCredits,
  ZWorkspaceMemberParams,
  ZWorkspaceParams,
  ZWorkspaceUsage,
  ZWorkspaceUsageQuery,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireUser } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { getMemberCredits } from "../credits/get-member-credits";
import type { MemberUsage } from "../credits/list-member-usage";
import { setMemberCap } from "../credits/set-member-cap";
import { findUserById } from "../users/find-user";
import { listMemberSpend } from "./list-member-spend";
import { lockMemberChange, requireMayCap } from "./member-rules";
import { recordWorkspaceAudit } from "./record-workspace-audit";
import { payerFor, requireWorkspaceAccess, type WorkspaceAccess } from "./workspace-access";

const tags = ["workspaces"];

/** Caps and per-member usage are about a shared pool: a personal workspace has none. */
function requireTeam(access: WorkspaceAccess): void {
  if (access.kind !== "team") {
    throw new AppError(
      ERROR_CODES.validationFailed,
      400,
      "Only team workspaces have pooled credits and member caps.",
    );
  }
}

/**
 * Pool spend of people who are no longer members stays in the month's usage (decision 052):
 * a deleted account as "Deleted member", someone who left under their name.
 */
async function departedSpenders(
  db: FastifyInstance["db"],
  members: readonly { user_id: string }[],
  usage: Map<string, MemberUsage>,
): Promise<TWorkspaceMemberUsage[]> {
  const current = new Set(members.map((m) => m.user_id));
  const departed: TWorkspaceMemberUsage[] = [];
  for (const [userId, used] of usage) {
    if (current.has(userId) || (used.spent === 0 && used.held === 0 && used.calls === 0)) continue;
    const user = await findUserById(db, userId);
    departed.push({
      user_id: userId,
      email: user?.email ?? "",
      display_name: user?.displayName ?? DELETED_MEMBER_NAME,
      role: "member",
      spent_credits: used.spent,
      held_credits: used.held,
      monthly_cap_credits: null,
      calls: used.calls,
      departed: user ? "left" : "deleted",
    });
  }
  return departed;
}

const thisMonth = () => new Date().toISOString().slice(0, 7);

/** A team workspace's pooled credits: balance, per-member caps and usage (decision 040). */
export async function workspaceCreditRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    WORKSPACE_CREDIT_ROUTES.credits(":id"),
    {
      schema: {
        tags,
        summary:
          "The workspace's credits as the caller sees them: the pool's balance and the caller's own monthly cap and use (viewer+)",
        params: ZWorkspaceParams,
        response: { 200: ZWorkspaceCredits },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const access = await requireWorkspaceAccess(app.db, user.id, request.params.id);
      reply.header("cache-control", "no-store");
      return getMemberCredits(app.db, payerFor(access.workspaceId, user.id));
    },
  );

  r.get(
    WORKSPACE_CREDIT_ROUTES.usage(":id"),
    {
      schema: {
        tags,
        summary:
          "What each member spent from the pool in a month (UTC), with their caps and open holds (admin+)",
        params: ZWorkspaceParams,
        querystring: ZWorkspaceUsageQuery,
        response: { 200: ZWorkspaceUsage },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const access = await requireWorkspaceAccess(app.db, user.id, request.params.id, "admin");
      requireTeam(access);
      const month = request.query.month ?? thisMonth();
      const { members, usage, spend } = await listMemberSpend(app.db, access.workspaceId, month);
      reply.header("cache-control", "no-store");
      return {
        month,
        members: [
          ...spend.map((member) => ({
            ...member,
            held_credits: usage.get(member.user_id)?.held ?? 0,
          })),
          ...(await departedSpenders(app.db, members, usage)),
        ],
      };
    },
  );

  r.put(
    WORKSPACE_CREDIT_ROUTES.memberCap(":id", ":userId"),
    {
      schema: {
        tags,
        summary:
          "Set a member's monthly cap on the pool, in credits; null removes it (admin+). Holds already made stay; new ones over the cap are refused with 402 member_cap_reached",
        params: ZWorkspaceMemberParams,
        body: ZSetMemberCap,
        response: { 200: ZMemberCap },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const { id, userId } = request.params;
      const access = await requireWorkspaceAccess(app.db, user.id, id, "admin");
      requireTeam(access);
      const cap = request.body.monthly_cap_credits;
      const change = await app.db.transaction(async (tx) => {
        // Roles read under the lock that role changes take, so a demotion racing this cannot
        // let an admin cap an owner (decision 052).
        const member = { workspaceId: access.workspaceId, actorId: user.id, userId };
        const { actorRole, targetRole } = await lockMemberChange(tx, member, "admin");
        requireMayCap(actorRole, targetRole);
        const changed = await setMemberCap(tx, access.workspaceId, userId, cap);
        await recordWorkspaceAudit(tx, {
          workspaceId: access.workspaceId,
          actorId: user.id,
          action: "member.cap_changed",
          target: userId,
          details: { from: changed.previous, to: changed.current },
        });
        return changed;
      });
      return { user_id: userId, monthly_cap_credits: change.current };
    },
  );
}
