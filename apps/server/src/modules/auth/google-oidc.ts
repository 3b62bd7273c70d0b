import type * as OidcLib from "openid-client";

export interface GoogleOidcSettings {
  clientId: string;
  clientSecret: string;
  issuerUrl: string;
  redirectUri: string;
}

/** What travels in the signed, short-lived cookie between the redirect and the callback. */
export interface PendingLogin {
  state: string;
  nonce: string;
  verifier: string;
}

export interface GoogleClaims {
  sub: string;
  email: string | undefined;
  emailVerified: boolean;
  givenName: string | undefined;
  familyName: string | undefined;
  name: string | undefined;
  picture: string | undefined;
}

export interface GoogleOidc {
  begin(): Promise<{ url: string; pending: PendingLogin }>;
  finish(callbackUrl: URL, pending: PendingLogin): Promise<GoogleClaims>;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

const str = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

/**
 * Server-side Google sign-in: authorization code flow with PKCE, state and nonce, through
 * openid-client. The provider's metadata is discovered on first use and kept; a failed
 * discovery is retried on the next sign-in instead of being cached.
 */
export function createGoogleOidc(settings: GoogleOidcSettings): GoogleOidc {
  // openid-client loads on the first Google sign-in, so instances without Google pay nothing.
  let configuration: Promise<{ oidc: typeof OidcLib; config: OidcLib.Configuration }> | null = null;
  const discover = () => {
    configuration ??= import("openid-client")
      .then(async (oidc) => {
        const config = await oidc.discovery(
          new URL(settings.issuerUrl),
          settings.clientId,
          { redirect_uris: [settings.redirectUri] },
          oidc.ClientSecretPost(settings.clientSecret),
          // Plain http is only allowed for a provider on this machine (local development, tests).
          LOOPBACK.has(new URL(settings.issuerUrl).hostname) &&
            settings.issuerUrl.startsWith("http:")
            ? { execute: [oidc.allowInsecureRequests] }
            : {},
        );
        // Check the ID token's signature too, not only its claims: defence in depth.
        oidc.enableNonRepudiationChecks(config);
        return { oidc, config };
      })
      .catch((error: unknown) => {
        configuration = null;
        throw error;
      });
    return configuration;
  };

  return {
    async begin() {
      const { oidc, config } = await discover();
      const pending: PendingLogin = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier: oidc.randomPKCECodeVerifier(),
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope: "openid email profile",
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: "S256",
      });
      return { url: url.href, pending };
    },

    async finish(callbackUrl, pending) {
      const { oidc, config } = await discover();
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error("The provider returned no ID token");
      let claims: Record<string, unknown> = idClaims;
      // Google puts email in the ID token; a strict OIDC provider may keep it for userinfo.
      if (!str(claims.email)) {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
        claims = { ...info, ...idClaims, email: info.email, email_verified: info.email_verified };
      }
      return {
        sub: idClaims.sub,
        email: str(claims.email)?.toLowerCase(),
        emailVerified: claims.email_verified === true || claims.email_verified === "true",
        givenName: str(claims.given_name),
        familyName: str(claims.family_name),
        name: str(claims.name),
        picture: str(claims.picture),
      };
    },
  };
}
