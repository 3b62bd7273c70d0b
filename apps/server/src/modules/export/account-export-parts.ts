import type { TUserProfile } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { listAccessTokens } from "../access-tokens/list-access-tokens";
import { listAcceptances } from "../agreements/list-acceptances";
import { listIdentities } from "../auth/list-identities";
import { listAccountLedger } from "../credits/list-account-ledger";
import { listAllMemories } from "../memory/list-memories";
import { getMemorySettings } from "../memory/memory-settings";
import { getTelemetryPreferences } from "../telemetry/get-telemetry-preferences";
import { listApiKeys } from "../users/list-api-keys";
import { listAccountMemberships } from "../workspaces/account-workspaces";

/**
 * profile.json: who the user is, how they sign in, what they agreed to and how they set the
 * app up. Provider keys and access tokens are listed by their visible hints only: the zip is
 * a copy of the user's data, not a way to lift their secrets.
 */
export async function buildProfilePart(db: Queryable, user: TUserProfile) {
  const [identities, agreements, memorySettings, telemetry, providerKeys, accessTokens] =
    await Promise.all([
      listIdentities(db, user.id),
      listAcceptances(db, user.id),
      getMemorySettings(db, user.id),
      getTelemetryPreferences(db, user.id),
      listApiKeys(db, user.id),
      listAccessTokens(db, user.id),
    ]);
  return {
    profile: user,
    sign_in: { has_password: identities.hasPassword, identities: identities.identities },
    agreement_acceptances: agreements,
    settings: {
      memory: memorySettings,
      telemetry,
      provider_keys: providerKeys,
      access_tokens: accessTokens,
    },
  };
}

/** memories.json: every memory (approved and proposed) and the memory switches. */
export async function buildMemoriesPart(db: Queryable, userId: string) {
  const [memories, settings] = await Promise.all([
    listAllMemories(db, userId),
    getMemorySettings(db, userId),
  ]);
  return { settings, memories };
}

/** ledger.json: the personal credit account (its id is the user's id) and its usage. */
export async function buildLedgerPart(db: Queryable, user: TUserProfile) {
  const ledger = await listAccountLedger(db, user.id);
  return { balance: user.credits_remaining, ...ledger };
}

/** workspaces.json: every membership and its role. */
export async function buildWorkspacesPart(db: Queryable, userId: string) {
  const memberships = await listAccountMemberships(db, userId);
  return {
    workspaces: memberships.map(({ owner_count: _owners, ...membership }) => membership),
  };
}
