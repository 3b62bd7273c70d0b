/** Public facts about the company that appear in copy; one place to change them. */
export const SITE = {
  name: "Cohort",
  tagline: "Many models, one team.",
  legalName: "Cohort",
  emails: {
    hello: "hello@cohort.chat",
    support: "support@cohort.chat",
    sales: "sales@cohort.chat",
    privacy: "privacy@cohort.chat",
    security: "security@cohort.chat",
    press: "press@cohort.chat",
  },
  /** The date the current privacy policy and terms took effect. */
  legalEffectiveDate: "November 1, 2026",
} as const;

/** Where every "Get Started" goes: the login screen, already in Create your account mode. */
export const SIGN_UP_PATH = "/login?mode=signup";
