import type { MailMessage } from "./mail";

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The one HTML frame of every Cohort email: a title, paragraphs, one button with the link
 * repeated in text. In the platform so every module that mails (auth, workspace
 * invitations) looks the same without importing each other.
 */
export function emailLayout(
  title: string,
  paragraphs: string[],
  action: { label: string; url: string },
) {
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

/**
 * A mail whose point is one link, as text and as HTML: a greeting, what the link is for, the
 * link (the button in HTML, `linkText: url` in text), then what else to know.
 */
export function linkEmail(message: {
  to: string;
  subject: string;
  /** The greeting, the paragraph before the link and the one after it. */
  lines: [string, string, string];
  linkText: string;
  action: { label: string; url: string };
}): MailMessage {
  const { to, subject, lines, linkText, action } = message;
  return {
    to,
    subject,
    text: `${lines[0]}\n\n${lines[1]}\n\n${linkText}: ${action.url}\n\n${lines[2]}\n\n— The Cohort team\n`,
    html: emailLayout(subject, lines, action),
  };
}
