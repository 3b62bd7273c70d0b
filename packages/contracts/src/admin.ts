import { z } from "zod";
import { ZUserProfile } from "./auth";

/** Admin-area calls (spec §6: a separate admin audience with its own login). */

export const ZOutboxMessage = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  created_at: z.string(),
});
export type TOutboxMessage = z.infer<typeof ZOutboxMessage>;

export const ZOutboxResponse = z.object({ messages: z.array(ZOutboxMessage) });
export type TOutboxResponse = z.infer<typeof ZOutboxResponse>;

export const ZAdminUsersQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
  q: z.string().trim().max(254).optional().describe("Part of an email address or name"),
});
export type TAdminUsersQuery = z.infer<typeof ZAdminUsersQuery>;

export const ZAdminUsersResponse = z.object({
  users: z.array(ZUserProfile),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type TAdminUsersResponse = z.infer<typeof ZAdminUsersResponse>;
