import type { ReactNode } from "react";

export interface FaqItem {
  question: string;
  answer: ReactNode;
}

/**
 * Native <details> disclosures: keyboard and screen-reader support for free, no script, and
 * the browser's find-in-page opens the matching answer.
 */
export function FaqList({ items }: { items: readonly FaqItem[] }) {
  return (
    <div className="divide-y divide-ink-200 border-y border-ink-200">
      {items.map((item) => (
        <details key={item.question} className="group py-1">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-6 rounded-lg py-4 text-left text-base font-semibold text-ink-950 marker:content-none hover:text-brand-700 [&::-webkit-details-marker]:hidden">
            <span>{item.question}</span>
            <svg
              viewBox="0 0 20 20"
              aria-hidden="true"
              className="size-5 shrink-0 text-ink-500 transition-transform group-open:rotate-45"
            >
              <path
                d="M10 4v12M4 10h12"
                stroke="currentColor"
                strokeWidth="1.75"
                strokeLinecap="round"
              />
            </svg>
          </summary>
          <div className="pb-5 pr-10 text-base leading-7 text-ink-600">{item.answer}</div>
        </details>
      ))}
    </div>
  );
}
