import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client";
import type { Mailer } from "../../platform/mail";
import { type CreditsDeps, publishToSockets } from "../credits/credits-deps";
import type { SignInSettings } from "./sign-in-settings";

/** What the auth services need from the app, gathered once so services stay plain functions. */
export interface AuthDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  signIns: SignInSettings;
  /** Credits an account gets once its address is verified (SIGNUP_CREDITS). */
  signupCredits: number;
  /** Tells the user's sockets about a balance change, after its transaction committed. */
  publishCredits: CreditsDeps["publish"];
  /** Accounts one IP address may create per hour. */
  signupLimitPerHour: number;
}

export interface RequestMeta {
  ip: string;
  userAgent: string | undefined;
}

export function authDeps(app: FastifyInstance): AuthDeps {
  return {
    db: app.db,
    mailer: app.mailer,
    publicUrl: app.config.publicUrl,
    signIns: { idleDays: app.config.signInIdleDays, maxDays: app.config.signInMaxDays },
    signupCredits: app.config.billing.signupCredits,
    publishCredits: (changes) => publishToSockets(app.realtime)(changes),
    signupLimitPerHour: app.config.signupLimitPerHour,
  };
}
