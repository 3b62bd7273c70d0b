import { type ReactNode, useMemo } from "react";
import { type Block, type Inline, parseMarkdown } from "./markdown";

function renderInline(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, index) => {
    const key = `${node.type}-${index}`;
    switch (node.type) {
      case "text":
        return node.text;
      case "strong":
        return (
          <strong key={key} className="font-semibold text-ink-900">
            {renderInline(node.children)}
          </strong>
        );
      case "em":
        return <em key={key}>{renderInline(node.children)}</em>;
      case "code":
        return (
          <code key={key} className="rounded bg-ink-100 px-1 py-0.5 font-mono text-[0.85em]">
            {node.text}
          </code>
        );
      case "link": {
        const external = /^https?:/i.test(node.href);
        return (
          <a
            key={key}
            href={node.href}
            className="font-medium text-brand-700 underline underline-offset-2"
            {...(external ? { target: "_blank", rel: "noopener noreferrer" } : {})}
          >
            {renderInline(node.children)}
          </a>
        );
      }
      default:
        return null;
    }
  });
}

const headingClasses = {
  1: "text-xl font-bold text-ink-950",
  2: "mt-6 text-base font-semibold text-ink-950",
  3: "mt-4 text-sm font-semibold text-ink-900",
  4: "mt-4 text-sm font-semibold text-ink-800",
} as const;

function renderBlock(block: Block, index: number): ReactNode {
  switch (block.type) {
    case "heading": {
      // The dialog's title is the page-level heading; the text's own levels sit below it.
      const Tag = (["h3", "h3", "h4", "h5"] as const)[block.level - 1] ?? "h5";
      return (
        <Tag key={index} className={headingClasses[block.level]}>
          {renderInline(block.children)}
        </Tag>
      );
    }
    case "paragraph":
      return (
        <p key={index} className="mt-3">
          {renderInline(block.children)}
        </p>
      );
    case "list": {
      const Tag = block.ordered ? "ol" : "ul";
      return (
        <Tag
          key={index}
          className={`mt-3 space-y-1.5 pl-5 ${block.ordered ? "list-decimal" : "list-disc"}`}
        >
          {block.items.map((item, itemIndex) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the items are static text in order
            <li key={itemIndex}>{renderInline(item)}</li>
          ))}
        </Tag>
      );
    }
    case "rule":
      return <hr key={index} className="my-5 border-ink-200" />;
  }
}

/** The agreement text, rendered from Markdown as plain React elements (no raw HTML). */
export function AgreementContent({ markdown }: { markdown: string }) {
  const blocks = useMemo(() => parseMarkdown(markdown), [markdown]);
  return <div className="text-sm leading-6 text-ink-700">{blocks.map(renderBlock)}</div>;
}
