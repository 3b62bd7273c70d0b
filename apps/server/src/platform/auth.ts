import {
  AUTH_MESSAGES,
  ERROR_CODES,
  SIGN_IN_COOKIE,
  type TUserProfile,
  type TUserRole,
} from "@cohort/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "./errors";

/**
 * The request's authentication, shared by every module: who is calling, through which
 * sign-in. The auth module supplies how a token becomes a principal (`resolveSignIn`);
 * everything else only asks `requireUser` / `requireAdmin`.
 */
export interface Principal {
  user: TUserProfile;
  signInId: string;
  /** When the sign-in ends whatever happens (absolute expiry). */
  expiresAt: Date;
  /** When the sign-in ends unless used again (idle expiry, as of this request). */
  idleExpiresAt: Date;
  /**
   * The user has stored provider keys, as the sign-in's own statement found: calls of a user
   * without any (most users) skip reading them.
   */
  hasProviderKeys: boolean;
}

export type ResolveSignIn = (token: string) => Promise<Principal | null>;

/**
 * A value read in the sign-in's own statement, so that a call whose answer depends only on
 * who is calling costs one statement, not two (decision 084). The owning module writes the
 * SQL (a scalar subquery of one text value); the auth module adds it to its statement.
 */
export interface SignInRider {
  /**
   * The subquery, given the signed-in user's id as an SQL expression; its parameters are
   * numbered from $2 ($1 is the sign-in's). Asked once per rider (the statement is prepared),
   * so it must be the same text every time.
   */
  subquery(userId: string): string;
}

/** A principal with what its rider read (null when the subquery gave no row). */
export interface SignedIn {
  principal: Principal;
  ridden: string | null;
}

/**
 * A rider's parameters ($2 on), or a function giving them from an opaque key of the sign-in
 * (its token's hash): a rider that conditions its value on what the caller kept from the
 * same sign-in's last request passes that along (decision 089). The key only picks what is
 * passed; the statement decides, as always, whether the sign-in is valid.
 */
export type RiderParams = readonly unknown[] | ((signInKey: string) => readonly unknown[]);

export type ResolveSignInRiding = (
  token: string,
  rider: SignInRider,
  params: RiderParams,
) => Promise<SignedIn | null>;

declare module "fastify" {
  interface FastifyInstance {
    resolveSignIn: ResolveSignIn;
    resolveSignInRiding: ResolveSignInRiding;
  }
  interface FastifyRequest {
    /** Memoised result of the first guard that looked, so later guards cost nothing. */
    principal: Promise<Principal | null> | null;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The sign-in token of a request or a socket handshake: the Authorization header first, then
 * the sign-in cookie. A malformed or unknown bearer never falls back to the cookie, so a
 * header always means exactly what it says.
 */
export function readSignInToken(
  authorization: string | undefined,
  cookies: Record<string, string | undefined>,
): string | null {
  if (authorization !== undefined && authorization !== "") {
    return BEARER.exec(authorization)?.[1] ?? "";
  }
  return cookies[SIGN_IN_COOKIE] ?? null;
}

export function registerAuth(
  app: FastifyInstance,
  resolveSignIn: ResolveSignIn,
  resolveSignInRiding: ResolveSignInRiding,
): void {
  app.decorate("resolveSignIn", resolveSignIn);
  app.decorate("resolveSignInRiding", resolveSignInRiding);
  app.decorateRequest("principal", null);
}

function unauthorized(): AppError {
  return new AppError(ERROR_CODES.unauthorized, 401, AUTH_MESSAGES.unauthorized);
}

/** The caller's principal, or null when the request carries no valid sign-in. */
export function currentPrincipal(request: FastifyRequest): Promise<Principal | null> {
  if (!request.principal) {
    const token = readSignInToken(request.headers.authorization, request.cookies);
    request.principal = token ? request.server.resolveSignIn(token) : Promise.resolve(null);
  }
  return request.principal;
}

/**
 * Starts resolving the request's principal with `rider` read in the same statement
 * (decision 084), and gives what the rider read once it is known; the guards that follow
 * (`requireUser`, `requireAgreement`) wait for the same principal and decide as always.
 * Undefined when nothing rode along (the principal was already asked for, or the request
 * carries no sign-in): the caller then reads the value itself, after its guards.
 */
export function currentPrincipalRiding(
  request: FastifyRequest,
  rider: SignInRider,
  params: RiderParams,
): Promise<string | null> | undefined {
  if (request.principal) return undefined;
  const token = readSignInToken(request.headers.authorization, request.cookies);
  if (!token) return undefined;
  const signedIn = request.server.resolveSignInRiding(token, rider, params);
  request.principal = signedIn.then((s) => s?.principal ?? null);
  const ridden = signedIn.then((s) => s?.ridden ?? null);
  // A failed statement fails the request through its guard, which awaits the principal; a
  // caller whose guard threw never awaits this one.
  ridden.catch(() => {});
  return ridden;
}

/**
 * 401 `unauthorized` unless the request carries a valid, unexpired, unrevoked sign-in. Works
 * in a handler (`const { user } = await requireUser(request)`) and as a preHandler.
 */
export async function requireUser(request: FastifyRequest): Promise<Principal> {
  const principal = await currentPrincipal(request);
  if (!principal) throw unauthorized();
  return principal;
}

export function hasRole(principal: Principal, role: TUserRole): boolean {
  return principal.user.role === role;
}

/** 401 for anonymous callers, 403 `forbidden` for signed-in users who are not admins. */
export async function requireAdmin(request: FastifyRequest): Promise<Principal> {
  const principal = await requireUser(request);
  if (!hasRole(principal, "admin")) {
    throw new AppError(ERROR_CODES.forbidden, 403, "This area is for administrators only.");
  }
  return principal;
}
