import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Queryable } from "../../db/client";
import { openSecret, sealSecret } from "../users/api-key-crypto";
import type { McpServersDeps } from "./mcp-servers-deps";
import type { McpServerRow } from "./server-row";

/** What an OAuth connection keeps, sealed as one value. */
export interface OAuthSecret {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  codeVerifier?: string;
}

/** The row is bound in as additional data: a secret copied to another row does not open. */
const context = (serverId: string) => `mcp-server:${serverId}`;

export function readSecret(
  deps: Pick<McpServersDeps, "keyRing">,
  row: McpServerRow,
): string | null {
  if (!row.secret_ciphertext || !row.secret_iv || !row.secret_tag || !row.secret_key_id) {
    return null;
  }
  return openSecret(
    deps.keyRing,
    {
      ciphertext: row.secret_ciphertext,
      iv: row.secret_iv,
      tag: row.secret_tag,
      keyId: row.secret_key_id,
    },
    context(row.id),
  );
}

export function sealedColumns(
  deps: Pick<McpServersDeps, "keyRing">,
  serverId: string,
  value: string,
) {
  const sealed = sealSecret(deps.keyRing, value, context(serverId));
  return [sealed.ciphertext, sealed.iv, sealed.tag, sealed.keyId] as const;
}

export async function writeSecret(
  db: Queryable,
  deps: Pick<McpServersDeps, "keyRing">,
  serverId: string,
  value: string,
): Promise<void> {
  await db.query(
    `UPDATE mcp_servers SET secret_ciphertext = $2, secret_iv = $3, secret_tag = $4,
       secret_key_id = $5, updated_at = clock_timestamp() WHERE id = $1`,
    [serverId, ...sealedColumns(deps, serverId, value)],
  );
}

export function readOAuthSecret(
  deps: Pick<McpServersDeps, "keyRing">,
  row: McpServerRow,
): OAuthSecret {
  const raw = readSecret(deps, row);
  return raw ? (JSON.parse(raw) as OAuthSecret) : {};
}
