import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider, { type Configuration } from "oidc-provider";

/** The claims a stand-in account presents, as Google's ID token and userinfo would. */
export type OidcClaims = Record<string, unknown>;

export interface OidcStandInOptions {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** The claims of an account by subject, or undefined for an unknown one. */
  findClaims(sub: string): OidcClaims | undefined;
  /** Who the login page signs in as: the "user" already signed in at the provider. */
  loginAs(): string;
}

/**
 * A real OpenID Connect provider (oidc-provider) on a random loopback port, standing in for
 * Google in integration and browser tests: code flow with PKCE, signed ID tokens, userinfo.
 * Its login page signs in at once, and consent is granted up front, as at Google for a user
 * who already allowed Cohort.
 */
export async function startOidcStandIn(
  options: OidcStandInOptions,
): Promise<{ issuer: string; close(): Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const configuration: Configuration = {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: "k1", alg: "RS256", use: "sig" }] },
    cookies: { keys: ["oidc-stand-in-cookie-key"] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "given_name", "family_name", "picture"],
    },
    findAccount: async (_ctx, sub) => {
      const claims = options.findClaims(sub);
      return claims ? { accountId: sub, claims: async () => ({ ...claims, sub }) } : undefined;
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    loadExistingGrant: async (ctx) => {
      const clientId = ctx.oidc.client?.clientId;
      const accountId = ctx.oidc.session?.accountId;
      if (!clientId || !accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
    pkce: { required: () => true },
  };
  const provider = new Provider(issuer, configuration);
  const handle = provider.callback();
  server.on("request", (req, res) => {
    if (req.url?.startsWith("/interaction/")) {
      provider
        .interactionFinished(
          req,
          res,
          { login: { accountId: options.loginAs() } },
          { mergeWithLastSubmission: false },
        )
        .catch((error: unknown) => {
          res.statusCode = 500;
          res.end(String(error));
        });
      return;
    }
    handle(req, res);
  });
  return {
    issuer,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
