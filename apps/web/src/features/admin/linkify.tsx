import type { ReactNode } from "react";

const URL_PATTERN = /(https?:\/\/[^\s<>"')]+)/g;

/** Plain text with its http(s) addresses turned into links; nothing else is interpreted. */
export function linkify(text: string): ReactNode[] {
  return text.split(URL_PATTERN).map((part, index) =>
    index % 2 === 1 ? (
      <a
        // biome-ignore lint/suspicious/noArrayIndexKey: parts of one fixed string, in order
        key={index}
        href={part}
        className="break-all font-medium text-brand-700 underline"
      >
        {part}
      </a>
    ) : (
      part
    ),
  );
}
