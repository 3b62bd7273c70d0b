import { prepared, type Queryable } from "../../db/client";
import type { Principal, RiderParams, SignedIn, SignInRider } from "../../platform/auth";
import { balanceSubquery, creditsFromBalanceColumn } from "../credits/get-balance";
import { providerKeysExistSubquery } from "../users/load-user-keys";
import { toUserProfile, USER_JSON_FIELDS_U, type UserRow } from "../users/user-row";
import { hashOpaqueToken } from "./opaque-token";
import { SIGN_IN_TOUCH_INTERVAL_MS, type SignInSettings } from "./sign-in-settings";

interface SignInRow extends UserRow {
  sign_in_id: string;
  /** The sign-in's own timestamps as epoch milliseconds: numbers, no date parsed per request. */
  last_used_ms: number;
  idle_expires_ms: number;
  expires_ms: number;
  balance: number | null;
  has_provider_keys: boolean;
}

/** A timestamptz as a float8 of epoch milliseconds (microseconds as its fraction). */
const epochMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;

/**
 * The row comes as one JSON text (`signed_in`), beside the rider's column: the driver
 * describes and maps two fields per request instead of 17 or 18, and parses no date
 * (decision 088). The same columns, values and types once parsed: uuids and texts as
 * strings, the bigint balance and the float8 epochs as numbers, timestamps as ISO text.
 */
const signInStatement = (rider: string) => `
  SELECT json_build_object('sign_in_id', s.id,
    'last_used_ms', ${epochMs("s.last_used_at")},
    'idle_expires_ms', ${epochMs("s.idle_expires_at")}, 'expires_ms', ${epochMs("s.expires_at")},
    ${USER_JSON_FIELDS_U}, 'balance', ${balanceSubquery("u.id")},
    'has_provider_keys', ${providerKeysExistSubquery("u.id")})::text AS signed_in${rider}
  FROM sign_ins s JOIN users u ON u.id = s.user_id
  WHERE s.token_hash = $1 AND s.revoked_at IS NULL
    AND s.idle_expires_at > now() AND s.expires_at > now()`;

/** Every authenticated request runs it: prepared once per PostgreSQL connection. */
const SIGN_IN = prepared(signInStatement(""));

/** The sign-in's statement with each rider's subquery, made and prepared once per rider. */
const ridingStatements = new WeakMap<SignInRider, string>();
function ridingStatement(rider: SignInRider): string {
  let statement = ridingStatements.get(rider);
  if (!statement) {
    statement = prepared(signInStatement(`, (${rider.subquery("u.id")}) AS ridden`));
    ridingStatements.set(rider, statement);
  }
  return statement;
}

/**
 * The principal behind a sign-in token, or null when the token is unknown, revoked, or past
 * its idle or absolute expiry. Use slides the idle expiry forward, never past the absolute one.
 *
 * Every authenticated request runs this, so it is one statement: the sign-in, its user, the
 * user's balance and whether the user has stored provider keys, together. Nothing of it is
 * cached: a revoked sign-in, a deleted user, a changed role or a saved key takes effect on
 * the very next request, on every instance (decision 016).
 */
export async function resolveSignIn(
  db: Queryable,
  token: string,
  settings: SignInSettings,
): Promise<Principal | null> {
  return (await signIn(db, token, settings, SIGN_IN, []))?.principal ?? null;
}

/**
 * The same, with a rider's subquery in the same statement (decision 084): the sign-in is
 * read exactly as above, every request, and the rider's value comes with it.
 */
export function resolveSignInRiding(
  db: Queryable,
  token: string,
  settings: SignInSettings,
  rider: SignInRider,
  params: RiderParams,
): Promise<SignedIn | null> {
  return signIn(db, token, settings, ridingStatement(rider), params);
}

async function signIn(
  db: Queryable,
  token: string,
  settings: SignInSettings,
  statement: string,
  params: RiderParams,
): Promise<SignedIn | null> {
  if (token.length < 20 || token.length > 200) return null;
  const tokenHash = hashOpaqueToken(token);
  const { rows } = await db.query<{ signed_in: string; ridden?: string | null }>(statement, [
    tokenHash,
    ...(typeof params === "function" ? params(tokenHash) : params),
  ]);
  const found = rows[0];
  if (!found) return null;
  const row = JSON.parse(found.signed_in) as SignInRow;
  // A Date of a fractional time truncates to the millisecond, as the driver's Dates did.
  let idleExpiresAt = new Date(row.idle_expires_ms);
  if (Date.now() - row.last_used_ms > SIGN_IN_TOUCH_INTERVAL_MS) {
    idleExpiresAt = await touchSignIn(db, row.sign_in_id, settings);
  }
  return {
    principal: {
      user: toUserProfile(row, creditsFromBalanceColumn(row.balance)),
      signInId: row.sign_in_id,
      expiresAt: new Date(row.expires_ms),
      idleExpiresAt,
      hasProviderKeys: row.has_provider_keys,
    },
    ridden: found.ridden ?? null,
  };
}

async function touchSignIn(db: Queryable, id: string, settings: SignInSettings): Promise<Date> {
  const { rows } = await db.query<{ idle_expires_at: Date | string }>(
    `UPDATE sign_ins SET last_used_at = now(),
       idle_expires_at = LEAST(now() + make_interval(secs => $2), expires_at)
     WHERE id = $1 RETURNING idle_expires_at`,
    [id, settings.idleDays * 86_400],
  );
  return new Date(rows[0]?.idle_expires_at ?? Date.now());
}
