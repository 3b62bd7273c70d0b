import type { ReactNode } from "react";
import { Container } from "../container";

export interface PageHeaderProps {
  eyebrow?: string;
  title: string;
  lead?: ReactNode;
  children?: ReactNode;
}

/** The title block at the top of every public page; holds the page's only h1. */
export function PageHeader({ eyebrow, title, lead, children }: PageHeaderProps) {
  return (
    <div className="border-b border-ink-200 bg-gradient-to-b from-brand-50/70 to-white">
      <Container className="py-14 sm:py-20">
        {eyebrow ? <p className="text-sm font-semibold text-brand-700">{eyebrow}</p> : null}
        <h1 className="mt-2 max-w-3xl text-4xl font-bold tracking-tight text-balance text-ink-950 sm:text-5xl">
          {title}
        </h1>
        {lead ? <p className="mt-5 max-w-2xl text-lg leading-8 text-ink-600">{lead}</p> : null}
        {children ? <div className="mt-8">{children}</div> : null}
      </Container>
    </div>
  );
}
