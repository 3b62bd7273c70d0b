import type { TUserProfile } from "@cohort/contracts";
import type { MailMessage } from "../../platform/mail";
import { emailLayout as layout } from "../../platform/mail-layout";

function greeting(user: Pick<TUserProfile, "firstName">): string {
  return user.firstName ? `Hi ${user.firstName},` : "Hi,";
}

export function verificationEmail(
  publicUrl: string,
  user: Pick<TUserProfile, "email" | "firstName">,
  token: string,
): MailMessage {
  const url = `${publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
  const subject = "Confirm your email address for Cohort";
  const lines = [
    greeting(user),
    "Thanks for signing up for Cohort. Please confirm that this is your email address so we can reach you about your account.",
    "The link works once and expires in 48 hours. If you did not create a Cohort account, you can ignore this email.",
  ];
  return {
    to: user.email,
    subject,
    text: `${lines[0]}\n\n${lines[1]}\n\nConfirm your address: ${url}\n\n${lines[2]}\n\n— The Cohort team\n`,
    html: layout(subject, lines, { label: "Confirm email address", url }),
  };
}

export function passwordResetEmail(
  publicUrl: string,
  user: Pick<TUserProfile, "email" | "firstName">,
  token: string,
): MailMessage {
  const url = `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
  const subject = "Reset your Cohort password";
  const lines = [
    greeting(user),
    "Someone (hopefully you) asked to reset the password of your Cohort account. Use the link below to choose a new one.",
    "The link works once and expires in 1 hour. When you set a new password, every device signed in to your account is signed out. If you did not ask for this, ignore this email: your password stays as it is.",
  ];
  return {
    to: user.email,
    subject,
    text: `${lines[0]}\n\n${lines[1]}\n\nReset your password: ${url}\n\n${lines[2]}\n\n— The Cohort team\n`,
    html: layout(subject, lines, { label: "Choose a new password", url }),
  };
}
