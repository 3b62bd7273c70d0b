import { useEffect, useRef, useState } from "react";
import { cn } from "../../components/cn";
import { type Block, type Inline, parseMarkdown } from "../../components/markdown/parse-markdown";

function inlineText(inlines: readonly Inline[]): string {
  return inlines
    .map((inline) => {
      switch (inline.type) {
        case "text":
        case "code":
          return inline.text;
        case "break":
          return "\n";
        case "image":
          return inline.alt;
        default:
          return inlineText(inline.children);
      }
    })
    .join("");
}

function blockText(block: Block): string {
  switch (block.type) {
    case "heading":
    case "paragraph":
      return inlineText(block.children);
    case "code":
      return block.text.replace(/\n$/, "");
    case "quote":
      return block.children.map(blockText).join("\n\n");
    case "list":
      return block.items
        .map((item, i) => {
          const bullet = block.ordered ? `${block.start + i}. ` : "• ";
          return `${bullet}${item.map(blockText).join("\n")}`;
        })
        .join("\n");
    case "table":
      return [block.head, ...block.rows]
        .map((row) => row.map((cell) => inlineText(cell)).join("\t"))
        .join("\n");
    case "rule":
      return "";
  }
}

/**
 * Model output as plain text: the Markdown read by the app's one parser, with its marks
 * dropped (headings, emphasis, links keep their words; lists keep a bullet).
 */
export function plainTextOf(markdown: string): string {
  return parseMarkdown(markdown)
    .map(blockText)
    .filter((text) => text !== "")
    .join("\n\n");
}

async function writeClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** "Copy" (the Markdown as written) and "Copy text" (plain) for an answer or a lane. */
export function CopyActions({
  text,
  what,
  plainLabel = `Copy ${what} as plain text`,
  buttonClassName = "rounded-md px-1.5 py-0.5 text-xs font-semibold text-ink-600 hover:bg-ink-100 hover:text-ink-900 disabled:opacity-50",
  className,
}: {
  text: string;
  /** Names the thing copied, for screen readers: "the final answer", "the Coder's draft". */
  what: string;
  /** The accessible name of "Copy text" (it starts with what the button says). */
  plainLabel?: string;
  buttonClassName?: string;
  className?: string;
}) {
  const [done, setDone] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const copy = async (kind: "markdown" | "plain") => {
    const ok = await writeClipboard(kind === "markdown" ? text : plainTextOf(text));
    setDone(ok ? (kind === "markdown" ? "Copied as Markdown" : "Copied as text") : "Copy failed");
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setDone(null), 2_000);
  };
  return (
    <span className={cn("inline-flex items-center gap-0.5", className)}>
      <button
        type="button"
        className={buttonClassName}
        disabled={!text}
        onClick={() => void copy("markdown")}
        aria-label={`Copy ${what} as Markdown`}
      >
        Copy
      </button>
      <button
        type="button"
        className={buttonClassName}
        disabled={!text}
        onClick={() => void copy("plain")}
        aria-label={plainLabel}
      >
        Copy text
      </button>
      <span role="status" className="text-xs text-emerald-700" data-testid="copy-status">
        {done}
      </span>
    </span>
  );
}
