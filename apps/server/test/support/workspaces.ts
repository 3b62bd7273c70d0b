import type { TWorkspaceRole } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import { type SignedUp, signUp } from "./accounts";

/**
 * Team workspaces for integration tests of every issue-14 feature. Written with plain SQL so
 * tests of access checks do not depend on the workspace routes (and so each test sets up
 * exactly the members and roles it needs).
 */
export interface TeamMember {
  userId: string;
  role: TWorkspaceRole;
}

export interface Team {
  id: string;
  name: string;
}

/** A team workspace created by `ownerId` (its owner) with the given other members. */
export async function createTeam(
  app: FastifyInstance,
  ownerId: string,
  members: TeamMember[] = [],
  name = "Test team",
): Promise<Team> {
  const { rows } = await app.db.query<{ id: string }>(
    `INSERT INTO workspaces (kind, name, created_by) VALUES ('team', $1, $2) RETURNING id`,
    [name, ownerId],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error("no workspace created");
  await addTeamMember(app, id, { userId: ownerId, role: "owner" });
  for (const member of members) await addTeamMember(app, id, member);
  return { id, name };
}

/** A team of a new owner and `members` new people with the member role. */
export async function createCrew(
  app: FastifyInstance,
  members: number,
): Promise<{ id: string; owner: SignedUp; members: SignedUp[] }> {
  const owner = await signUp(app);
  const others: SignedUp[] = [];
  for (let i = 0; i < members; i++) others.push(await signUp(app));
  const created = await createTeam(
    app,
    owner.user.id,
    others.map((m) => ({ userId: m.user.id, role: "member" as const })),
  );
  return { id: created.id, owner, members: others };
}

/** Adds a member (or changes the role of one already in the team). */
export async function addTeamMember(
  app: FastifyInstance,
  workspaceId: string,
  member: TeamMember,
): Promise<void> {
  await app.db.query(
    `INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, $3)
     ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = EXCLUDED.role, updated_at = clock_timestamp()`,
    [workspaceId, member.userId, member.role],
  );
}

/** Takes a member out of the team (as removal does, without the socket drop). */
export async function removeTeamMember(
  app: FastifyInstance,
  workspaceId: string,
  userId: string,
): Promise<void> {
  await app.db.query("DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2", [
    workspaceId,
    userId,
  ]);
}
