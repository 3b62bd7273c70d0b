import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client";
import type { Mailer } from "../../platform/mail";
import type { SessionSettings } from "./session-settings";

/** What the auth services need from the app, gathered once so services stay plain functions. */
export interface AuthDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  sessions: SessionSettings;
  /** Credits a new account starts with (SIGNUP_CREDITS). */
  signupCredits: number;
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
    sessions: { idleDays: app.config.sessionIdleDays, maxDays: app.config.sessionMaxDays },
    signupCredits: app.config.billing.signupCredits,
  };
}
