import { useEffect, useMemo, useRef, useState } from "react";
import { cn } from "../cn";
import { highlight, isHighlighted, languageName, type TokenType } from "./highlight";

/** Token colours on the dark code surface (all at least 4.5:1 on ink-950). */
const TOKEN_CLASSES: Record<TokenType, string | undefined> = {
  plain: undefined,
  comment: "text-slate-400 italic",
  string: "text-emerald-300",
  number: "text-amber-300",
  keyword: "text-violet-300",
  literal: "text-amber-300",
  function: "text-sky-300",
  type: "text-cyan-200",
  property: "text-sky-200",
  tag: "text-rose-300",
  attr: "text-amber-200",
  operator: "text-slate-300",
  punctuation: "text-slate-400",
  variable: undefined,
  decorator: "text-pink-300",
};

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API refused (no permission, insecure context): the old way still works.
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

/** Copies a block's code, saying so on the button and to screen readers. */
export function CopyCodeButton({ code, name }: { code: string; name: string }) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const copy = async () => {
    const ok = await copyText(code);
    setCopied(ok ? "copied" : "failed");
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied("idle"), 2_000);
  };

  return (
    <>
      <button
        type="button"
        onClick={copy}
        className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-xs font-medium text-ink-200 transition-colors hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-400"
      >
        <svg viewBox="0 0 16 16" aria-hidden="true" className="size-3.5" fill="none">
          {copied === "copied" ? (
            <path
              d="M3 8.5l3 3 7-7"
              stroke="currentColor"
              strokeWidth="1.75"
              strokeLinecap="round"
            />
          ) : (
            <>
              <rect
                x="5"
                y="5"
                width="8"
                height="8"
                rx="1.5"
                stroke="currentColor"
                strokeWidth="1.5"
              />
              <path d="M3 10.5V4a1 1 0 011-1h6.5" stroke="currentColor" strokeWidth="1.5" />
            </>
          )}
        </svg>
        {copied === "copied" ? "Copied" : copied === "failed" ? "Copy failed" : "Copy"}
      </button>
      <span className="sr-only" role="status">
        {copied === "copied" ? `${name} code copied to the clipboard` : ""}
      </span>
    </>
  );
}

/** The highlighted code itself, on the dark code surface. */
export function HighlightedCode({ code, lang }: { code: string; lang: string }) {
  const tokens = useMemo(() => (isHighlighted(lang) ? highlight(code, lang) : null), [code, lang]);
  return (
    <pre className="overflow-x-auto p-3 text-[13px] leading-5 sm:p-4">
      <code
        className={cn("font-mono", lang ? `language-${lang.replace(/[^\w-]/g, "")}` : undefined)}
      >
        {tokens
          ? tokens.map((token, index) => (
              <span
                // biome-ignore lint/suspicious/noArrayIndexKey: tokens have no identity but their place
                key={index}
                className={TOKEN_CLASSES[token.type]}
              >
                {token.text}
              </span>
            ))
          : code}
      </code>
    </pre>
  );
}

/** The frame of a code block: the dark surface with a header bar for its name and actions. */
export const CODE_SURFACE =
  "group/code my-3 overflow-hidden rounded-xl border border-ink-800 bg-ink-950 text-ink-100 shadow-sm";
export const CODE_HEADER =
  "flex flex-wrap items-center justify-between gap-2 border-b border-white/10 bg-white/5 px-3 py-1.5";

export function CodeBlock({ code, lang }: { code: string; lang: string }) {
  const name = languageName(lang);
  return (
    <div className={CODE_SURFACE}>
      <div className={CODE_HEADER}>
        <span className="font-mono text-[11px] font-semibold tracking-wide text-ink-300 uppercase">
          {name}
        </span>
        <CopyCodeButton code={code} name={name} />
      </div>
      <HighlightedCode code={code} lang={lang} />
    </div>
  );
}
