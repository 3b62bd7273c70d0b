import { randomBytes } from "node:crypto";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { McpServersDeps } from "./mcp-servers-deps";
import type { McpServerRow } from "./server-row";
import { type OAuthSecret, readOAuthSecret, writeSecret } from "./server-secret";

/**
 * The SDK's OAuth 2.1 client (decision 060) kept in the server's row: the client Cohort
 * registered (dynamic client registration), the tokens and a pending PKCE verifier, sealed
 * together; the state sent to the authorization server in a column of its own, so the
 * callback finds the row. `redirectToAuthorization` only records where the person must go:
 * the API hands that address to the web app.
 */
export interface StoredOAuthClient extends OAuthClientProvider {
  /** Set when the SDK asked for the person to sign in. */
  authorizationUrl(): URL | undefined;
}

export function storedOAuthClient(deps: McpServersDeps, row: McpServerRow): StoredOAuthClient {
  const secret: OAuthSecret = readOAuthSecret(deps, row);
  let authorizationUrl: URL | undefined;
  const save = () => writeSecret(deps.db, deps, row.id, JSON.stringify(secret));
  const metadata: OAuthClientMetadata = {
    client_name: "Cohort",
    redirect_uris: [deps.oauthRedirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    ...(row.oauth_scope ? { scope: row.oauth_scope } : {}),
  };
  return {
    get redirectUrl() {
      return deps.oauthRedirectUrl;
    },
    get clientMetadata() {
      return metadata;
    },
    async state() {
      const state = randomBytes(24).toString("base64url");
      await deps.db.query("UPDATE mcp_servers SET oauth_state = $2 WHERE id = $1", [row.id, state]);
      return state;
    },
    clientInformation: () => secret.client,
    async saveClientInformation(client: OAuthClientInformationMixed) {
      secret.client = client;
      await save();
    },
    tokens: () => secret.tokens,
    async saveTokens(tokens: OAuthTokens) {
      secret.tokens = tokens;
      delete secret.codeVerifier;
      await save();
    },
    redirectToAuthorization(url: URL) {
      authorizationUrl = url;
    },
    async saveCodeVerifier(verifier: string) {
      secret.codeVerifier = verifier;
      await save();
    },
    codeVerifier() {
      if (!secret.codeVerifier) throw new Error("no OAuth sign-in is under way");
      return secret.codeVerifier;
    },
    async invalidateCredentials(scope) {
      if (scope === "all" || scope === "client") delete secret.client;
      if (scope === "all" || scope === "tokens") delete secret.tokens;
      if (scope === "all" || scope === "verifier") delete secret.codeVerifier;
      await save();
    },
    authorizationUrl: () => authorizationUrl,
  };
}
