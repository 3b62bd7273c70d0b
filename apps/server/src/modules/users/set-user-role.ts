import type { TUserRole } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

export async function setUserRole(db: Queryable, userId: string, role: TUserRole): Promise<void> {
  await db.query("UPDATE users SET role = $2, updated_at = now() WHERE id = $1", [userId, role]);
}
