import {
  SPENDING_ROUTES,
  ZSetSpendingLimit,
  ZSignedInUserResponse,
  ZSpendingLimit,
  ZUpdateProfileRequest,
  ZUsageQuery,
  ZUserResponse,
  ZUserUsage,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { currentPrincipal, requireUser } from "../../platform/auth";
import { getUsageBreakdown } from "../credits/get-usage";
import { getSpendingLimit, setSpendingLimit } from "../credits/spending-limit";
import { updateProfile } from "./update-profile";

const tags = ["users"];

export async function userRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/api/users/profile",
    {
      schema: { tags, summary: "The signed-in user's profile", response: { 200: ZUserResponse } },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("cache-control", "no-store");
      return { user };
    },
  );

  // The web app asks this on every page load; answering "nobody" with 200 keeps a signed-out
  // visitor's console free of 401s, while /api/users/profile keeps the spec's 401.
  r.get(
    "/api/auth/me",
    {
      schema: {
        tags,
        summary: "The signed-in user, or null when the request carries no valid sign-in",
        response: { 200: ZSignedInUserResponse },
      },
    },
    async (request, reply) => {
      const principal = await currentPrincipal(request);
      reply.header("cache-control", "no-store");
      return { user: principal?.user ?? null };
    },
  );

  r.get(
    "/api/users/usage",
    {
      schema: {
        tags,
        summary: "The signed-in user's model usage per day and per model (last 30 days by default)",
        querystring: ZUsageQuery,
        response: { 200: ZUserUsage },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("cache-control", "no-store");
      return getUsageBreakdown(app.db, user.id, request.query.days);
    },
  );

  r.get(
    SPENDING_ROUTES.limit,
    {
      schema: {
        tags,
        summary:
          "The signed-in user's personal monthly spending limit and what counts against it this month (every wallet)",
        response: { 200: ZSpendingLimit },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("cache-control", "no-store");
      return getSpendingLimit(app.db, user.id);
    },
  );

  r.put(
    SPENDING_ROUTES.limit,
    {
      schema: {
        tags,
        summary: "Set (or, with null, remove) the signed-in user's personal monthly spending limit",
        body: ZSetSpendingLimit,
        response: { 200: ZSpendingLimit },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return setSpendingLimit(app.db, user.id, request.body.monthly_limit_credits);
    },
  );

  r.put(
    "/api/users/profile",
    {
      schema: {
        tags,
        summary: "Change the signed-in user's names or photo (fields left out stay as they are)",
        body: ZUpdateProfileRequest,
        response: { 200: ZUserResponse },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const body = request.body;
      const updated = await updateProfile(app.db, user.id, {
        firstName: body.firstName,
        lastName: body.lastName,
        displayName: body.displayName,
        photoUrl: body.photoURL !== undefined ? body.photoURL : body.avatar,
      });
      return { user: updated };
    },
  );
}
