import type { JWTClaimVerificationOptions, JWTPayload } from "jose";

export interface FirebaseSettings {
  projectId: string;
  jwksUrl: string;
  /**
   * host:port of the Firebase Auth emulator (FIREBASE_AUTH_EMULATOR_HOST). Only then are the
   * emulator's unsigned tokens accepted, as the official Admin SDK does.
   */
  emulatorHost?: string | undefined;
}

export interface FirebaseClaims extends JWTPayload {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
  firebase?: {
    /** google.com, github.com, facebook.com, twitter.com, password, … */
    sign_in_provider?: string;
    /** The user's id at each provider, by provider id: `{"google.com": ["1234…"]}`. */
    identities?: Record<string, unknown>;
  };
}

export type FirebaseTokenVerifier = (idToken: string) => Promise<FirebaseClaims>;

/** Seconds of clock difference allowed between Google's servers and this one. */
const CLOCK_TOLERANCE_S = 5;

/**
 * Verifies Firebase ID tokens as Firebase documents it: RS256, signed by a key of Google's
 * securetoken JWKS (fetched and cached by jose), issuer securetoken.google.com/<project>,
 * audience the project, unexpired, issued and authenticated in the past, with a subject.
 * With an emulator host configured, the emulator's unsigned (`alg: none`) tokens pass the
 * same claim checks instead; without it an unsigned token is refused like any forgery.
 */
export function createFirebaseVerifier(settings: FirebaseSettings): FirebaseTokenVerifier {
  const claimChecks: JWTClaimVerificationOptions = {
    issuer: `https://securetoken.google.com/${settings.projectId}`,
    audience: settings.projectId,
    requiredClaims: ["sub", "iat", "exp", "auth_time"],
    clockTolerance: CLOCK_TOLERANCE_S,
  };
  // jose loads on the first token to verify, so instances without Firebase pay nothing.
  const jose = import("jose");
  const jwks = settings.emulatorHost
    ? null
    : jose.then(({ createRemoteJWKSet }) =>
        createRemoteJWKSet(new URL(settings.jwksUrl), { cooldownDuration: 30_000 }),
      );
  return async (idToken) => {
    const { jwtVerify, UnsecuredJWT } = await jose;
    const payload = jwks
      ? (await jwtVerify(idToken, await jwks, { ...claimChecks, algorithms: ["RS256"] })).payload
      : UnsecuredJWT.decode(idToken, claimChecks).payload;
    return checkTimesAndSubject(payload);
  };
}

function checkTimesAndSubject(payload: JWTPayload): FirebaseClaims {
  const latest = Date.now() / 1000 + CLOCK_TOLERANCE_S;
  if (typeof payload.sub !== "string" || payload.sub.length === 0 || payload.sub.length > 128) {
    throw new Error("ID token has no subject");
  }
  if (typeof payload.auth_time !== "number" || payload.auth_time > latest) {
    throw new Error("ID token auth_time is missing or in the future");
  }
  if (typeof payload.iat !== "number" || payload.iat > latest) {
    throw new Error("ID token was issued in the future");
  }
  return payload as FirebaseClaims;
}

/** The provider ids Cohort accepts through Firebase, and their short names. */
export const FIREBASE_SIGN_IN_PROVIDERS = {
  "google.com": "google",
  "github.com": "github",
  "facebook.com": "facebook",
  "twitter.com": "twitter",
} as const;

export type SignInProvider =
  (typeof FIREBASE_SIGN_IN_PROVIDERS)[keyof typeof FIREBASE_SIGN_IN_PROVIDERS];

/**
 * The provider account a verified token stands for: the provider the user signed in with,
 * and their id there (from `firebase.identities`), so that the same Google account is one
 * identity whether it came through Firebase or through the OIDC redirect. Null for sign-ins
 * Cohort does not accept through Firebase (password, phone, anonymous).
 */
export function providerIdentity(
  claims: FirebaseClaims,
): { provider: SignInProvider; subject: string } | null {
  const providerId = claims.firebase?.sign_in_provider;
  if (!providerId || !Object.hasOwn(FIREBASE_SIGN_IN_PROVIDERS, providerId)) return null;
  const provider =
    FIREBASE_SIGN_IN_PROVIDERS[providerId as keyof typeof FIREBASE_SIGN_IN_PROVIDERS];
  const ids = claims.firebase?.identities?.[providerId];
  const subject = Array.isArray(ids) && typeof ids[0] === "string" ? ids[0] : null;
  return subject ? { provider, subject } : null;
}
