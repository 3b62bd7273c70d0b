import type { TUserProfile } from "@cohort/contracts";
import type { MailMessage } from "../../platform/mail";
import { linkEmail } from "../../platform/mail-layout";

function greeting(user: Pick<TUserProfile, "firstName">): string {
  return user.firstName ? `Hi ${user.firstName},` : "Hi,";
}

export function verificationEmail(
  publicUrl: string,
  user: Pick<TUserProfile, "email" | "firstName">,
  token: string,
): MailMessage {
  const url = `${publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
  return linkEmail({
    to: user.email,
    subject: "Confirm your email address for Cohort",
    lines: [
      greeting(user),
      "Thanks for signing up for Cohort. Please confirm that this is your email address so we can reach you about your account.",
      "The link works once and expires in 48 hours. If you did not create a Cohort account, you can ignore this email.",
    ],
    linkText: "Confirm your address",
    action: { label: "Confirm email address", url },
  });
}

export function passwordResetEmail(
  publicUrl: string,
  user: Pick<TUserProfile, "email" | "firstName">,
  token: string,
): MailMessage {
  const url = `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
  return linkEmail({
    to: user.email,
    subject: "Reset your Cohort password",
    lines: [
      greeting(user),
      "Someone (hopefully you) asked to reset the password of your Cohort account. Use the link below to choose a new one.",
      "The link works once and expires in 1 hour. When you set a new password, every device signed in to your account is signed out. If you did not ask for this, ignore this email: your password stays as it is.",
    ],
    linkText: "Reset your password",
    action: { label: "Choose a new password", url },
  });
}
