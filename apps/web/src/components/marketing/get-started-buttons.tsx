import type { ReactNode } from "react";
import { SIGN_UP_PATH } from "../../lib/site";
import { ButtonLink } from "../button";
import { cn } from "../cn";

/**
 * Get Started and one more link (`to`, named by `children`) side by side, at the top or the end
 * of a public page; `dark` on a dark band (the hero, the closing call to action).
 */
export function GetStartedButtons({
  to,
  children,
  dark = false,
  className,
}: {
  to: string;
  children: ReactNode;
  dark?: boolean;
  /** Space above the row. */
  className?: string;
}) {
  return (
    <div className={cn(className, "flex flex-wrap gap-3")}>
      <ButtonLink to={SIGN_UP_PATH} size="lg" variant={dark ? "inverse" : undefined}>
        Get Started
      </ButtonLink>
      <ButtonLink
        to={to}
        size="lg"
        variant={dark ? "ghost" : "outline"}
        className={dark ? "text-white hover:bg-white/10 hover:text-white" : undefined}
      >
        {children}
      </ButtonLink>
    </div>
  );
}
