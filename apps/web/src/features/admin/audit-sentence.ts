import { type TAdminAuditEntry, TIER_LABELS, type TSubscriptionTier } from "@cohort/contracts";
import { formatDate } from "../../lib/format/dates";
import { formatCount, formatCreditAmount, formatCredits } from "../../lib/format/numbers";

/**
 * What an admin action did, as a sentence ("Added 42.5 credits: the balance went from 100 to
 * 142.5 credits."), from the entry's stored before and after. The stored shapes are the
 * services' (apps/server/src/modules/admin/*); a value of another shape (an older entry) is
 * left out rather than shown as JSON.
 */
type Fields = Record<string, unknown>;

function fields(value: unknown): Fields {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Fields)
    : {};
}

const num = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;
const str = (value: unknown): string | null =>
  typeof value === "string" && value.length > 0 ? value : null;

function tierName(value: unknown): string | null {
  const tier = str(value);
  return tier && tier in TIER_LABELS ? TIER_LABELS[tier as TSubscriptionTier] : tier;
}

function price(value: unknown): string | null {
  const p = fields(value);
  const input = num(p.input_per_1k);
  const output = num(p.output_per_1k);
  if (input === null || output === null) return null;
  return `${formatCreditAmount(input)} in / ${formatCreditAmount(output)} out per 1,000 tokens`;
}

function creditsAdjusted(before: Fields, after: Fields): string {
  const delta = num(after.delta);
  const was = num(before.balance);
  const now = num(after.balance);
  const verb =
    delta === null
      ? "Adjusted the credits"
      : delta >= 0
        ? `Added ${formatCredits(delta)}`
        : `Deducted ${formatCredits(-delta)}`;
  return was !== null && now !== null
    ? `${verb}: the balance went from ${formatCreditAmount(was)} to ${formatCredits(now)}.`
    : `${verb}.`;
}

function accountDeleted(before: Fields): string {
  const parts = [
    num(before.sessions) !== null ? formatCount(before.sessions as number, "session") : null,
    num(before.documents) !== null ? formatCount(before.documents as number, "document") : null,
    num(before.workspaces_deleted)
      ? formatCount(before.workspaces_deleted as number, "team workspace")
      : null,
  ].filter((p): p is string => p !== null);
  const forfeited = num(before.credits_forfeited);
  const erased =
    parts.length > 0
      ? `Deleted the account with ${parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : parts[0]}`
      : "Deleted the account";
  return forfeited ? `${erased}; ${formatCredits(forfeited)} were forfeited.` : `${erased}.`;
}

function modelOverride(before: Fields, after: Fields): string {
  const changes: string[] = [];
  if (before.enabled !== after.enabled && typeof after.enabled === "boolean") {
    changes.push(after.enabled ? "Turned the model on" : "Turned the model off");
  }
  const was = price(before.price);
  const now = price(after.price);
  if (now && was !== now) changes.push(was ? `Price ${was} → ${now}` : `Price set to ${now}`);
  return changes.length > 0 ? `${changes.join("; ")}.` : "Saved the model's settings unchanged.";
}

export function auditSentence(
  entry: Pick<TAdminAuditEntry, "action" | "before" | "after">,
): string {
  const before = fields(entry.before);
  const after = fields(entry.after);
  switch (entry.action) {
    case "credits.adjust":
      return creditsAdjusted(before, after);
    case "user.tier": {
      const was = tierName(before.tier);
      const now = tierName(after.tier);
      return was && now ? `Changed the tier from ${was} to ${now}.` : "Changed the tier.";
    }
    case "user.disable": {
      const ended = num(after.revoked_sign_ins);
      return ended
        ? `Disabled the account and ended ${formatCount(ended, "sign-in")}.`
        : "Disabled the account.";
    }
    case "user.enable":
      return "Enabled the account again.";
    case "user.revoke_sign_ins": {
      const ended = num(before.active_sign_ins);
      return ended === null ? "Ended every sign-in." : `Ended ${formatCount(ended, "sign-in")}.`;
    }
    case "agreement.publish": {
      const version =
        str(after.version) ?? (num(after.version) !== null ? String(after.version) : null);
      const effective = str(after.effectiveDate);
      const decline = after.allowDecline === true ? " Users may decline it." : "";
      return `Published ${version ? `version ${version}` : "a new version"}${effective ? `, in force from ${formatDate(effective)}` : ""}.${decline}`;
    }
    case "model.override":
      return modelOverride(before, after);
    case "account.deleted":
      return accountDeleted(before);
    case "user.email_verified": {
      const email = str(after.email) ?? str(before.email);
      return email ? `Marked ${email} as verified.` : "Marked the email address as verified.";
    }
    case "user.verification_sent": {
      const to = str(after.to);
      return to ? `Sent a new verification link to ${to}.` : "Sent a new verification link.";
    }
    case "user.password_reset_sent": {
      const to = str(after.to);
      return to ? `Sent a password reset link to ${to}.` : "Sent a password reset link.";
    }
  }
}
