import {
  type TAuthProviders,
  ZAuthProviders,
  ZAuthResponse,
  ZEmailStatusRequest,
  ZEmailStatusResponse,
  ZLoginRequest,
  ZSignupRequest,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authDeps } from "./auth-deps";
import { registerSocketAuth, watchSocketSignIns } from "./authenticate-socket";
import { checkEmailStatus } from "./check-email-status";
import { firebaseRoutes } from "./firebase-routes";
import { googleRoutes } from "./google-routes";
import { logIn } from "./log-in";
import { passwordRoutes } from "./password-routes";
import { loginMeta, replySignedIn, requestMeta } from "./reply-signed-in";
import { signInRoutes } from "./sign-in-routes";
import { signUp } from "./sign-up";
import { verificationRoutes } from "./verification-routes";

const tags = ["auth"];

/**
 * Accounts and signing in: sign-up, the email check, login and the sign-in providers here;
 * passwords, email verification, the user's sign-ins, Google and Firebase in their own
 * files, registered here.
 */
export async function authRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = authDeps(app);
  registerSocketAuth(app);
  watchSocketSignIns(app);

  r.post(
    "/api/user-auth/signup",
    {
      schema: {
        tags,
        summary: "Create an account and sign in; sends the email verification link",
        body: ZSignupRequest,
        response: { 201: ZAuthResponse },
      },
    },
    async (request, reply) => {
      const signedIn = await signUp(deps, request.body, requestMeta(request));
      return reply.status(201).send(replySignedIn(app, reply, signedIn));
    },
  );

  r.post(
    "/api/user-auth/email-status",
    {
      schema: {
        tags,
        summary:
          "Whether an address is free for a new account (asked before the agreement modal); counted per IP like sign-up",
        body: ZEmailStatusRequest,
        response: { 200: ZEmailStatusResponse },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return checkEmailStatus(deps, request.body.email, requestMeta(request));
    },
  );

  r.post(
    "/api/user-auth/login",
    {
      schema: {
        tags,
        summary: "Sign in with email and password (the data model login response)",
        body: ZLoginRequest,
        response: { 200: ZAuthResponse },
      },
    },
    async (request, reply) => {
      const signedIn = await logIn(deps, request.body, loginMeta(app, request, request.body.email));
      return replySignedIn(app, reply, signedIn);
    },
  );

  await passwordRoutes(app);
  await verificationRoutes(app);
  await signInRoutes(app);

  r.get(
    "/api/auth/providers",
    {
      schema: {
        tags,
        summary:
          "Which Google sign-in the server supports, the identity provider's web config, and the welcome credits",
        response: { 200: ZAuthProviders },
      },
    },
    async () => {
      const { google, firebase } = app.config;
      const firebaseWeb = firebase?.apiKey
        ? {
            apiKey: firebase.apiKey,
            authDomain: firebase.authDomain,
            projectId: firebase.projectId,
            storageBucket: firebase.storageBucket ?? null,
            messagingSenderId: firebase.messagingSenderId ?? null,
            appId: firebase.appId ?? null,
            providers: [...firebase.providers],
            emulatorUrl: firebase.emulatorHost ? `http://${firebase.emulatorHost}` : null,
          }
        : null;
      // With both configured, Google goes through the popup (the API, decision 024).
      const googleMode: TAuthProviders["googleMode"] = firebaseWeb?.providers.includes("google")
        ? "firebase"
        : google
          ? "oidc"
          : null;
      return {
        google: googleMode !== null,
        googleMode,
        firebase: firebaseWeb,
        welcomeCredits: app.config.billing.signupCredits,
      };
    },
  );

  await app.register(googleRoutes);
  await app.register(firebaseRoutes);
}
