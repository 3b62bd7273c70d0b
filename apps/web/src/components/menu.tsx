import { DropdownMenu } from "radix-ui";
import type { ReactNode } from "react";
import { cn } from "./cn";

/**
 * A dropdown menu item's look (Item, RadioItem, or an `asChild` link): a row that highlights
 * under the pointer and the keyboard, dimmed while disabled.
 */
export const menuItemClass =
  "flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm text-ink-800 outline-none select-none data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50 data-[highlighted]:bg-ink-100";

/** The line between a dropdown menu's groups. */
export function MenuSeparator() {
  return <DropdownMenu.Separator className="my-1 h-px bg-ink-100" />;
}

/**
 * A dropdown menu's panel, in a portal just below its trigger: the app's menu look (the
 * session actions; the workspace switcher draws the same panel). `className` sets its layer
 * and width.
 */
export function MenuContent({
  align,
  className,
  children,
}: {
  align: "start" | "end";
  className: string;
  children: ReactNode;
}) {
  return (
    <DropdownMenu.Portal>
      <DropdownMenu.Content
        align={align}
        sideOffset={6}
        className={cn("rounded-xl border border-ink-200 bg-white p-1 shadow-xl", className)}
      >
        {children}
      </DropdownMenu.Content>
    </DropdownMenu.Portal>
  );
}
