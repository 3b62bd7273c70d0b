import { SIGN_IN_COOKIE } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OidcClaims, startOidcStandIn } from "../../../test-support/oidc-provider";
import { logIn, signUp, TEST_PASSWORD, uniqueEmail } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";

/**
 * The full server-side Google sign-in against a real OpenID Connect provider (oidc-provider)
 * on a random port: redirect, login interaction, consent, code + PKCE exchange, ID token
 * check, userinfo, account creation or linking, sign-in cookie.
 */
const CLIENT_ID = "cohort-web";
const CLIENT_SECRET = "a-client-secret-for-tests-only-0123456789";
const CALLBACK = "http://localhost:3000/api/auth/google/callback";

interface Account {
  email: string;
  email_verified: boolean;
  given_name: string;
  family_name: string;
  name: string;
  picture: string;
}

const accounts = new Map<string, Account>();
/** Which account the next login interaction signs in as (the "user" at Google). */
let nextAccountId = "";

let standIn: Awaited<ReturnType<typeof startOidcStandIn>>;
let issuer: string;
let t: TestApp;

beforeAll(async () => {
  standIn = await startOidcStandIn({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUri: CALLBACK,
    findClaims: (sub) => accounts.get(sub) as OidcClaims | undefined,
    loginAs: () => nextAccountId,
  });
  issuer = standIn.issuer;

  t = await createTestApp({
    GOOGLE_CLIENT_ID: CLIENT_ID,
    GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
    GOOGLE_ISSUER_URL: issuer,
  });
  await t.app.ready();
});
afterAll(async () => {
  await t.close();
  await standIn.close();
});

function addAccount(sub: string, overrides: Partial<Account> = {}): Account {
  const account: Account = {
    email: uniqueEmail("google"),
    email_verified: true,
    given_name: "Katherine",
    family_name: "Johnson",
    name: "Katherine Johnson",
    picture: "https://example.com/katherine.png",
    ...overrides,
  };
  accounts.set(sub, account);
  return account;
}

/** A browser's cookie jar for the provider's origin. */
class Jar {
  private readonly cookies = new Map<string, string>();
  store(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair?.indexOf("=") ?? -1;
      if (pair && eq > 0) this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/** Follows the provider's redirects like a browser until it sends us back to Cohort. */
async function throughProvider(authorizationUrl: string): Promise<URL> {
  const jar = new Jar();
  let next = new URL(authorizationUrl);
  for (let hop = 0; hop < 10; hop++) {
    if (next.href.startsWith(CALLBACK)) return next;
    const response = await fetch(next, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.store(response);
    const location = response.headers.get("location");
    if (!location)
      throw new Error(`provider answered ${response.status}: ${await response.text()}`);
    next = new URL(location, next);
  }
  throw new Error("too many redirects");
}

interface Started {
  authorizationUrl: string;
  oauthCookie: string;
}

async function start(): Promise<Started> {
  const response = await t.app.inject({ method: "GET", url: "/api/auth/google" });
  expect(response.statusCode).toBe(302);
  const cookie = response.cookies.find((c) => c.name === "cohort_oauth");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/api/auth/google" });
  return {
    authorizationUrl: response.headers.location as string,
    oauthCookie: cookie?.value ?? "",
  };
}

async function callback(url: URL, oauthCookie: string | null) {
  return t.app.inject({
    method: "GET",
    url: `${url.pathname}${url.search}`,
    cookies: oauthCookie ? { cohort_oauth: oauthCookie } : {},
  });
}

async function signInAs(sub: string) {
  nextAccountId = sub;
  const { authorizationUrl, oauthCookie } = await start();
  return callback(await throughProvider(authorizationUrl), oauthCookie);
}

async function profileOf(signInToken: string) {
  const response = await t.app.inject({
    method: "GET",
    url: "/api/users/profile",
    cookies: { [SIGN_IN_COOKIE]: signInToken },
  });
  return response.json().user;
}

function signInCookie(response: Awaited<ReturnType<typeof callback>>) {
  return response.cookies.find((c) => c.name === SIGN_IN_COOKIE);
}

describe("Google sign-in (OIDC code flow + PKCE)", () => {
  it("says the server-side flow is available", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/auth/providers" });
    expect(response.json()).toEqual({
      google: true,
      googleMode: "oidc",
      firebase: null,
      welcomeCredits: 50,
    });
  });

  it("redirects to the provider with state, nonce and an S256 PKCE challenge", async () => {
    const { authorizationUrl } = await start();
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: CLIENT_ID,
      redirect_uri: CALLBACK,
      response_type: "code",
      scope: "openid email profile",
      code_challenge_method: "S256",
      state: expect.any(String),
      nonce: expect.any(String),
      code_challenge: expect.any(String),
    });
  });

  it("creates the account, signs it in and lands on /dashboard", async () => {
    const account = addAccount("google-sub-1");
    const response = await signInAs("google-sub-1");
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe("/dashboard");
    const cookie = signInCookie(response);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    const user = await profileOf(cookie?.value as string);
    expect(user).toMatchObject({
      email: account.email,
      firstName: "Katherine",
      lastName: "Johnson",
      displayName: "Katherine Johnson",
      photoURL: account.picture,
      emailVerified: true,
    });

    const again = await signInAs("google-sub-1");
    expect((await profileOf(signInCookie(again)?.value as string)).id).toBe(user.id);
  });

  it("links to an existing password account by its verified address", async () => {
    const { email, user } = await signUp(t.app);
    addAccount("google-sub-2", { email });
    const response = await signInAs("google-sub-2");
    expect(response.headers.location).toBe("/dashboard");
    const linked = await profileOf(signInCookie(response)?.value as string);
    expect(linked).toMatchObject({ id: user.id, emailVerified: true });
    expect((await logIn(t.app, email, TEST_PASSWORD)).response.statusCode).toBe(200);
  });

  it("refuses an address the provider has not verified", async () => {
    const { email } = await signUp(t.app);
    addAccount("google-sub-3", { email, email_verified: false });
    const response = await signInAs("google-sub-3");
    expect(response.headers.location).toBe("/login?error=google");
    expect(signInCookie(response)?.value ?? "").toBe("");
  });

  it("refuses a callback without the login cookie, with a tampered cookie or a wrong state", async () => {
    addAccount("google-sub-4");
    nextAccountId = "google-sub-4";
    const { authorizationUrl, oauthCookie } = await start();
    const back = await throughProvider(authorizationUrl);

    const noCookie = await callback(back, null);
    const tampered = await callback(back, oauthCookie.replace(/^.{4}/, "AAAA"));
    const wrongState = new URL(back);
    wrongState.searchParams.set("state", "attacker-state");
    const stateMismatch = await callback(wrongState, oauthCookie);
    for (const response of [noCookie, tampered, stateMismatch]) {
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe("/login?error=google");
      expect(signInCookie(response)?.value ?? "").toBe("");
    }
  });

  it("sends the user back to /login when the provider reports an error", async () => {
    const { oauthCookie } = await start();
    const response = await callback(
      new URL(`${CALLBACK}?error=access_denied&state=x&iss=${encodeURIComponent(issuer)}`),
      oauthCookie,
    );
    expect(response.headers.location).toBe("/login?error=google");
  });
});
