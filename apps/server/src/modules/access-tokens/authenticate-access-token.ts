import {
  ACCESS_TOKEN_ERROR_CODES,
  ACCESS_TOKEN_MESSAGES,
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_SCOPES,
  type AccessTokenScope,
  AGREEMENT_MESSAGES,
  ERROR_CODES,
} from "@cohort/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { prepared, type Queryable } from "../../db/client";
import type { Principal } from "../../platform/auth";
import { hashOpaqueToken } from "../auth/opaque-token";
import { balanceSubquery, creditsFromBalanceColumn } from "../credits/get-balance";
import { providerKeysExistSubquery } from "../users/load-user-keys";
import { toUserProfile, USER_COLUMNS_U, type UserRow } from "../users/user-row";
import { limitAccessTokenRate } from "./limit-access-token-rate";

export type { AccessTokenScope } from "@cohort/contracts";

export type TokenAuth =
  | { ok: true; principal: Principal; tokenId: string; scopes: AccessTokenScope[] }
  | {
      ok: false;
      status: 401 | 403 | 429;
      code: string;
      message: string;
      retryAfterSeconds?: number;
    };

/** `cohort_pat_` and 43 base64url characters (256 bits), nothing else. */
const ACCESS_TOKEN = new RegExp(`^${ACCESS_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`);
const BEARER = /^Bearer\s+(\S+)\s*$/i;
/** last_used_at/ip are written at most this often per token: not one write per request. */
const TOUCH_INTERVAL_MS = 60_000;
/** A token without expiry: a principal still needs a date. */
const NEVER = new Date("9999-12-31T23:59:59.999Z");

interface TokenRow extends UserRow {
  token_id: string;
  scopes: string[];
  expires_at: Date | string | null;
  last_used_at: Date | string | null;
  last_used_ip: string | null;
  balance: number | null;
  has_provider_keys: boolean;
}

/**
 * Every public API request runs it: the token, its user, the balance and whether the user has
 * provider keys, in one statement, as resolve-sign-in does for sign-ins. Revoked, expired and
 * disabled-account tokens are simply not found, so nothing is cached and a revocation counts
 * on the very next request, on every instance. The lookup is by the token's SHA-256 through a
 * unique index: comparing digests of 256-bit secrets leaks nothing usable by timing.
 */
const TOKEN = prepared(`
  SELECT t.id AS token_id, t.scopes, t.expires_at, t.last_used_at, t.last_used_ip,
    ${USER_COLUMNS_U}, ${balanceSubquery("u.id")} AS balance,
    ${providerKeysExistSubquery("u.id")} AS has_provider_keys
  FROM access_tokens t JOIN users u ON u.id = t.user_id
  WHERE t.token_hash = $1 AND t.revoked_at IS NULL
    AND (t.expires_at IS NULL OR t.expires_at > now()) AND u.disabled_at IS NULL`);

/** The access token of an Authorization header, or null when it carries none (or another kind). */
export function readAccessToken(authorization: string | undefined): string | null {
  const token = BEARER.exec(authorization ?? "")?.[1];
  return token && ACCESS_TOKEN.test(token) ? token : null;
}

function refuse(
  status: 401 | 403 | 429,
  code: string,
  message: string,
  retryAfterSeconds?: number,
): TokenAuth {
  return retryAfterSeconds === undefined
    ? { ok: false, status, code, message }
    : { ok: false, status, code, message, retryAfterSeconds };
}

/**
 * Reads `Authorization: Bearer cohort_pat_…`, checks hash/expiry/revocation/scope, applies the
 * per-token rate limit, records last-used time and IP. Also refuses (403 `agreement_required`)
 * while the owner has not accepted the current agreement, as the cookie routes do. A sign-in
 * token is never accepted here, nor an access token by the sign-in guard (`requireUser`).
 * `scope` null: any valid token will do.
 */
export async function authenticateAccessToken(
  app: FastifyInstance,
  request: FastifyRequest,
  scope: AccessTokenScope | null,
): Promise<TokenAuth> {
  const authorization = request.headers.authorization;
  const token = readAccessToken(authorization);
  if (!token) {
    return authorization
      ? refuse(401, ACCESS_TOKEN_ERROR_CODES.invalid, ACCESS_TOKEN_MESSAGES.invalid)
      : refuse(401, ACCESS_TOKEN_ERROR_CODES.invalid, ACCESS_TOKEN_MESSAGES.missing);
  }
  const { rows } = await app.db.query<TokenRow>(TOKEN, [hashOpaqueToken(token)]);
  const row = rows[0];
  if (!row) return refuse(401, ACCESS_TOKEN_ERROR_CODES.invalid, ACCESS_TOKEN_MESSAGES.invalid);

  const limited = await limitAccessTokenRate(app, request, row.token_id);
  if (limited) {
    return refuse(
      429,
      ERROR_CODES.rateLimited,
      ACCESS_TOKEN_MESSAGES.rateLimited(limited.retryAfterSeconds),
      limited.retryAfterSeconds,
    );
  }
  const scopes = row.scopes.filter((s): s is AccessTokenScope =>
    (ACCESS_TOKEN_SCOPES as readonly string[]).includes(s),
  );
  if (scope && !scopes.includes(scope)) {
    return refuse(
      403,
      ACCESS_TOKEN_ERROR_CODES.insufficientScope,
      ACCESS_TOKEN_MESSAGES.insufficientScope(scope),
    );
  }
  if (!(await hasAcceptedAgreement(app, row.id))) {
    return refuse(403, ERROR_CODES.agreementRequired, AGREEMENT_MESSAGES.required);
  }
  await touchAccessToken(app.db, row, request.ip);
  const expiresAt = row.expires_at === null ? NEVER : new Date(row.expires_at);
  return {
    ok: true,
    tokenId: row.token_id,
    scopes,
    principal: {
      user: toUserProfile(row, creditsFromBalanceColumn(row.balance)),
      // Never a sign-in's id (ids are unique uuids): sign-in revocation and socket rooms
      // cannot match it. Nothing reached with a token uses it.
      signInId: row.token_id,
      expiresAt,
      idleExpiresAt: expiresAt,
      hasProviderKeys: row.has_provider_keys,
    },
  };
}

async function hasAcceptedAgreement(app: FastifyInstance, userId: string): Promise<boolean> {
  const agreement = await app.agreementChecks.currentVersion();
  return !agreement || app.agreementChecks.hasDecided(userId, agreement);
}

/** Records use (time and address) at most once a minute per token. */
async function touchAccessToken(db: Queryable, row: TokenRow, ip: string): Promise<void> {
  const last = row.last_used_at === null ? 0 : new Date(row.last_used_at).getTime();
  if (Date.now() - last < TOUCH_INTERVAL_MS) return;
  await db.query("UPDATE access_tokens SET last_used_at = now(), last_used_ip = $2 WHERE id = $1", [
    row.token_id,
    ip.slice(0, 64),
  ]);
}
