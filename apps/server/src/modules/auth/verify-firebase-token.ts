import type { JWTPayload } from "jose";

export interface FirebaseSettings {
  projectId: string;
  jwksUrl: string;
}

export interface FirebaseClaims extends JWTPayload {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

export type FirebaseTokenVerifier = (idToken: string) => Promise<FirebaseClaims>;

/**
 * Verifies Firebase ID tokens as Firebase documents it: RS256, signed by a key of Google's
 * securetoken JWKS (fetched and cached by jose), issuer securetoken.google.com/<project>,
 * audience the project, unexpired, with a subject. Anything else throws.
 */
export function createFirebaseVerifier(settings: FirebaseSettings): FirebaseTokenVerifier {
  // jose loads on the first token to verify, so instances without Firebase pay nothing.
  const verifier = import("jose").then(({ createRemoteJWKSet, jwtVerify }) => ({
    jwtVerify,
    jwks: createRemoteJWKSet(new URL(settings.jwksUrl), { cooldownDuration: 30_000 }),
  }));
  return async (idToken) => {
    const { jwtVerify, jwks } = await verifier;
    const { payload } = await jwtVerify(idToken, jwks, {
      issuer: `https://securetoken.google.com/${settings.projectId}`,
      audience: settings.projectId,
      algorithms: ["RS256"],
      requiredClaims: ["sub", "iat", "exp"],
      clockTolerance: 5,
    });
    if (typeof payload.sub !== "string" || payload.sub.length === 0) {
      throw new Error("ID token has no subject");
    }
    if (typeof payload.auth_time === "number" && payload.auth_time > Date.now() / 1000 + 5) {
      throw new Error("ID token auth_time is in the future");
    }
    return payload as FirebaseClaims;
  };
}
