import { hasCoChatAccess, type TSubscriptionTier } from "@cohort/contracts";
import { Link } from "react-router";
import { Badge } from "../../components/badge";

/**
 * The roles: CoChat Unlimited for pro, pro+ and enterprise; otherwise locked, with the way up.
 * Meant for a wrapping flex row: the upgrade link takes a line of its own.
 */
export function CoChatBadge({ tier }: { tier: TSubscriptionTier }) {
  if (hasCoChatAccess(tier)) return <Badge tone="success">CoChat Unlimited</Badge>;
  return (
    <>
      <Badge tone="neutral">CoChat Locked</Badge>
      <Link to="/pricing" className="basis-full text-xs font-medium text-brand-700 hover:underline">
        Upgrade to unlock CoChat
      </Link>
    </>
  );
}
