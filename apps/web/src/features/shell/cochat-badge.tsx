import { hasCoChatAccess, type TSubscriptionTier } from "@cohort/contracts";
import { Link } from "react-router";
import { Badge } from "../../components/badge";

/** Spec §6: CoChat Unlimited for pro, pro+ and enterprise; otherwise locked, with the way up. */
export function CoChatBadge({ tier }: { tier: TSubscriptionTier }) {
  if (hasCoChatAccess(tier)) return <Badge tone="success">CoChat Unlimited</Badge>;
  return (
    <div className="flex flex-col items-start gap-1">
      <Badge tone="neutral">CoChat Locked</Badge>
      <Link to="/pricing" className="text-xs font-medium text-brand-700 hover:underline">
        Upgrade to unlock CoChat
      </Link>
    </div>
  );
}
