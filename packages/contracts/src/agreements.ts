import { z } from "zod";

/** The user agreement: its modal, its record, its rules and its calls. */

export const AGREEMENT_ERROR_CODES = {
  declineNotAllowed: "agreement_decline_not_allowed",
  notCurrent: "agreement_not_current",
} as const;

export const AGREEMENT_MESSAGES = {
  /** The validation rules, with {site} = Cohort. */
  declineNotAllowed: "You must accept the agreement to continue using Cohort",
  required: "Please accept the current Cohort User Agreement to continue.",
  notCurrent:
    "This is not the current version of the agreement. Please review the current version.",
} as const;

export const AGREEMENT_SOURCES = ["web", "api"] as const;

export const ZAgreement = z.object({
  id: z.string(),
  version: z.string(),
  effectiveDate: z.string().describe("YYYY-MM-DD"),
  content: z.string().describe("Markdown"),
  allowDecline: z.boolean(),
});
export type TAgreement = z.infer<typeof ZAgreement>;

export const ZAgreementResponse = z.object({ agreement: ZAgreement });
export type TAgreementResponse = z.infer<typeof ZAgreementResponse>;

export const ZAgreementStatus = z.object({
  requiresAcceptance: z.boolean(),
  agreement: ZAgreement.nullable(),
  lastAcceptedAt: z.string().nullable(),
});
export type TAgreementStatus = z.infer<typeof ZAgreementStatus>;

export const ZAcceptAgreementRequest = z.object({
  agreementId: z.string().min(1),
  source: z.enum(AGREEMENT_SOURCES).default("web"),
});
export type TAcceptAgreementRequest = z.infer<typeof ZAcceptAgreementRequest>;

export const ZAgreementAcceptance = z.object({
  id: z.string(),
  agreementId: z.string(),
  version: z.string(),
  acceptedAt: z.string(),
  source: z.string(),
});
export type TAgreementAcceptance = z.infer<typeof ZAgreementAcceptance>;

export const ZAcceptAgreementResponse = z.object({
  success: z.literal(true),
  acceptance: ZAgreementAcceptance,
});
export type TAcceptAgreementResponse = z.infer<typeof ZAcceptAgreementResponse>;

export const ZDeclineAgreementRequest = z.object({
  agreementId: z.string().min(1).optional(),
  source: z.enum(AGREEMENT_SOURCES).default("web"),
});
export type TDeclineAgreementRequest = z.infer<typeof ZDeclineAgreementRequest>;

export const ZDeclineAgreementResponse = z.object({
  success: z.literal(true),
  message: z.string(),
});
export type TDeclineAgreementResponse = z.infer<typeof ZDeclineAgreementResponse>;

export const ZAgreementHistory = z.object({ acceptances: z.array(ZAgreementAcceptance) });
export type TAgreementHistory = z.infer<typeof ZAgreementHistory>;

export const ZPublishAgreementRequest = z.object({
  version: z.string().trim().min(1).max(40),
  content: z.string().trim().min(1).max(200_000),
  effectiveDate: z.iso.date({ error: "effectiveDate must be a date (YYYY-MM-DD)." }),
  allowDecline: z.boolean().default(false),
});
export type TPublishAgreementRequest = z.infer<typeof ZPublishAgreementRequest>;
