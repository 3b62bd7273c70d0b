import type { AnchorHTMLAttributes, ComponentPropsWithRef } from "react";
import { Link, type LinkProps } from "react-router";
import { cn } from "./cn";

export type ButtonVariant = "primary" | "secondary" | "outline" | "ghost" | "inverse";
export type ButtonSize = "sm" | "md" | "lg";

const base =
  "inline-flex items-center justify-center gap-2 rounded-lg font-semibold whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed aria-disabled:cursor-not-allowed";

const variants: Record<ButtonVariant, string> = {
  primary:
    "bg-brand-600 text-white shadow-sm hover:bg-brand-700 focus-visible:outline-brand-600 disabled:bg-ink-200 disabled:text-ink-600 disabled:shadow-none",
  secondary:
    "bg-brand-50 text-brand-800 hover:bg-brand-100 focus-visible:outline-brand-600 disabled:bg-ink-100 disabled:text-ink-600",
  outline:
    "border border-ink-300 bg-white text-ink-900 hover:border-ink-400 hover:bg-ink-50 focus-visible:outline-brand-600 disabled:border-ink-200 disabled:bg-ink-50 disabled:text-ink-600",
  ghost: "text-ink-700 hover:bg-ink-100 hover:text-ink-950 focus-visible:outline-brand-600",
  inverse:
    "bg-white text-ink-950 shadow-sm hover:bg-brand-50 focus-visible:outline-white disabled:bg-ink-700 disabled:text-ink-300",
};

const sizes: Record<ButtonSize, string> = {
  sm: "h-9 px-3 text-sm",
  md: "h-10 px-4 text-sm",
  lg: "h-12 px-6 text-base",
};

export interface ButtonStyleProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
}

/** The classes of a button, for elements that must look like one but are something else. */
export function buttonClasses({
  variant = "primary",
  size = "md",
  className,
}: ButtonStyleProps = {}): string {
  return cn(base, variants[variant], sizes[size], className);
}

/** React 19 passes `ref` as a prop, so a caller can focus the button. */
export type ButtonProps = ComponentPropsWithRef<"button"> & ButtonStyleProps;

export function Button({ variant, size, className, type = "button", ...props }: ButtonProps) {
  return <button type={type} className={buttonClasses({ variant, size, className })} {...props} />;
}

export type ButtonLinkProps = LinkProps & ButtonStyleProps;

/** An in-app navigation that looks like a button. */
export function ButtonLink({ variant, size, className, ...props }: ButtonLinkProps) {
  return <Link className={buttonClasses({ variant, size, className })} {...props} />;
}

export type ButtonAnchorProps = AnchorHTMLAttributes<HTMLAnchorElement> & ButtonStyleProps;

/** A plain anchor that looks like a button: mailto links and pages the server renders. */
export function ButtonAnchor({ variant, size, className, ...props }: ButtonAnchorProps) {
  return <a className={buttonClasses({ variant, size, className })} {...props} />;
}
