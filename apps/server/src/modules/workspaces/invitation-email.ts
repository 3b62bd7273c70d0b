import { INVITATION_TTL_DAYS, type TInvitableRole } from "@cohort/contracts";
import type { MailMessage } from "../../platform/mail";
import { linkEmail } from "../../platform/mail-layout";

export const INVITATION_SUBJECT = "You are invited to a team workspace on Cohort";

const ROLE_WORDS: Record<TInvitableRole, string> = {
  admin: "an admin (you can invite people and manage the workspace's members)",
  member: "a member (you can start sessions and runs on the workspace's credits)",
  viewer: "a viewer (you can read the workspace's sessions and documents)",
};

/** Quoted as text: a name cannot close the quotes or start a new line of the message. */
function quoted(text: string): string {
  return `"${text.replace(/\s+/g, " ").replaceAll('"', "'")}"`;
}

/**
 * The invitation mail: who invites, to what, as what, and the single-use link. The subject is
 * all ours; the inviter's and the workspace's names are someone's own text, so they appear
 * only in the body, quoted (decision 052).
 */
export function invitationEmail(
  publicUrl: string,
  invite: {
    email: string;
    workspaceName: string;
    inviterName: string;
    inviterEmail: string;
    role: TInvitableRole;
  },
  token: string,
): MailMessage {
  const url = `${publicUrl}/dashboard?invite=${encodeURIComponent(token)}`;
  const subject = INVITATION_SUBJECT;
  const lines: [string, string, string] = [
    "Hi,",
    `${quoted(invite.inviterName)} (${invite.inviterEmail}) invited you to join the team workspace ${quoted(invite.workspaceName)} on Cohort as ${ROLE_WORDS[invite.role]}.`,
    `Sign in (or create an account) with ${invite.email} to accept. The link works once and expires in ${INVITATION_TTL_DAYS} days. If you do not know this person, you can ignore this email.`,
  ];
  return linkEmail({
    to: invite.email,
    subject,
    lines,
    linkText: "Accept the invitation",
    action: { label: "Accept the invitation", url },
  });
}
