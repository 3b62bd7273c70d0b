import type { TUserProfile } from "@cohort/contracts";
import type { MailMessage } from "../../platform/mail";

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function layout(title: string, paragraphs: string[], action: { label: string; url: string }) {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join("");
  const url = escapeHtml(action.url);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f5f5f7;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1d1d1f">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td>
<h1 style="margin:0 0 24px;font-size:22px">${escapeHtml(title)}</h1>
${body}
<p style="margin:24px 0"><a href="${url}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#6e6e73">If the button does not work, copy this link into your browser:<br><a href="${url}" style="color:#4f46e5;word-break:break-all">${url}</a></p>
<p style="margin:24px 0 0;font-size:13px;color:#6e6e73">— The Cohort team</p>
</td></tr></table></td></tr></table>
</body></html>`;
}

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
