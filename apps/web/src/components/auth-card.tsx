import type { ReactNode } from "react";
import { Link } from "react-router";
import { Logo } from "./logo";

/** The centred card the account screens (reset, verify, admin sign-in) share. */
export function AuthCard({
  title,
  description,
  children,
  footer,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center bg-ink-50 px-4 py-12">
      <Link to="/" aria-label="Cohort home" className="mb-8 rounded-lg">
        <Logo />
      </Link>
      <div className="w-full max-w-md rounded-2xl border border-ink-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight text-ink-950">{title}</h1>
        {description ? <p className="mt-2 text-sm leading-6 text-ink-600">{description}</p> : null}
        <div className="mt-6">{children}</div>
      </div>
      {footer ? <div className="mt-6 text-sm text-ink-600">{footer}</div> : null}
    </div>
  );
}
