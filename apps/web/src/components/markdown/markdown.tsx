import { generatedImageIdOf, isGeneratedImagePath } from "@cohort/contracts";
import {
  type ComponentType,
  createContext,
  Fragment,
  memo,
  type ReactNode,
  useContext,
  useMemo,
  useState,
} from "react";
import { cn } from "../cn";
import { type Citations, CitationsContext, CitedText } from "./cited-text";
import { CodeBlock } from "./code-block";
import { type Block, createMarkdownReader, type Inline } from "./parse-markdown";

/**
 * Renders model output (Markdown) as React elements. Nothing from the text becomes raw HTML:
 * tags show as text, links are limited to http(s), mailto and paths on this site and open in
 * a new tab without an opener, code blocks are highlighted and can be copied. The one
 * renderer of Markdown: Cohort Chat, CoChat and the user agreement.
 */
/**
 * Whether Markdown shows images from other hosts. A shared page turns them into links
 * (decision 051): loading one would tell its host who opened the page, and the page's CSP
 * refuses them anyway. Images of this site and inline ones always show.
 */
export const RemoteImagesContext = createContext<"show" | "link">("show");

/** A fenced block as the renderer hands it over: `closed` is false while it still streams. */
export interface CodeBlockProps {
  code: string;
  lang: string;
  closed: boolean;
}

/**
 * Who draws fenced code blocks: the plain highlighted block by default; a screen that
 * previews artifacts (the chat, shared pages) provides its own (decision 063).
 */
export const CodeBlockContext = createContext<ComponentType<CodeBlockProps> | null>(null);

function MarkdownCode(props: CodeBlockProps) {
  const Custom = useContext(CodeBlockContext);
  return Custom ? <Custom {...props} /> : <CodeBlock code={props.code} lang={props.lang} />;
}

/** The host of an image on another site; null for this site's and inline images. */
function remoteHost(src: string): string | null {
  if (!/^https?:\/\//i.test(src)) return null;
  try {
    const url = new URL(src);
    return url.origin === window.location.origin ? null : url.host;
  } catch {
    return "another site";
  }
}

function MarkdownImage({ src, alt }: { src: string; alt: string }) {
  const host = useContext(RemoteImagesContext) === "link" ? remoteHost(src) : null;
  if (host !== null) {
    return (
      <a
        href={src}
        target="_blank"
        rel="noopener noreferrer nofollow"
        className="font-medium text-brand-700 underline decoration-brand-300 underline-offset-2"
        data-testid="blocked-image"
      >
        {alt ? `Image: ${alt} (${host})` : `Image from ${host}`}
      </a>
    );
  }
  if (isGeneratedImagePath(src)) return <GeneratedImage src={src} alt={alt} />;
  return (
    <img
      src={src}
      alt={alt}
      loading="lazy"
      referrerPolicy="no-referrer"
      className="my-2 inline-block max-h-96 max-w-full rounded-lg border border-ink-200"
    />
  );
}

/**
 * A picture a model made (decision 064), served by Cohort: shown, with a link that downloads
 * the file itself (the server answers `?download=1` as an attachment).
 */
function GeneratedImage({ src, alt }: { src: string; alt: string }) {
  const id = generatedImageIdOf(src) ?? "";
  return (
    <span
      className="my-2 inline-flex max-w-full flex-col items-start gap-1"
      data-testid="generated-image"
    >
      <img
        src={src}
        alt={alt || "Generated image"}
        loading="lazy"
        referrerPolicy="no-referrer"
        className="inline-block max-h-[32rem] max-w-full rounded-lg border border-ink-200"
      />
      <a
        href={`${src}?download=1`}
        download
        className="text-xs font-medium text-brand-700 underline decoration-brand-300 underline-offset-2 hover:decoration-brand-600"
        aria-label={`Download image ${id.slice(0, 8)}`}
      >
        Download image
      </a>
    </span>
  );
}

function renderInline(nodes: Inline[], keyPrefix = ""): ReactNode[] {
  return nodes.map((node, index) => {
    const key = `${keyPrefix}${index}`;
    switch (node.type) {
      case "text":
        return <CitedText key={key} text={node.text} />;
      case "strong":
        return (
          <strong key={key} className="font-semibold text-ink-950">
            {renderInline(node.children, `${key}.`)}
          </strong>
        );
      case "em":
        return <em key={key}>{renderInline(node.children, `${key}.`)}</em>;
      case "del":
        return <del key={key}>{renderInline(node.children, `${key}.`)}</del>;
      case "code":
        return (
          <code
            key={key}
            className="rounded-md bg-ink-100 px-1.5 py-0.5 font-mono text-[0.85em] text-ink-900 ring-1 ring-ink-200 ring-inset"
          >
            {node.text}
          </code>
        );
      case "break":
        return <br key={key} />;
      case "link":
        return (
          <a
            key={key}
            href={node.href}
            target="_blank"
            rel="noopener noreferrer"
            className="font-medium text-brand-700 underline decoration-brand-300 underline-offset-2 hover:decoration-brand-600"
          >
            {/* A citation inside a link would be a link in a link. */}
            <CitationsContext.Provider value={null}>
              {renderInline(node.children, `${key}.`)}
            </CitationsContext.Provider>
          </a>
        );
      case "image":
        return <MarkdownImage key={key} src={node.src} alt={node.alt} />;
    }
    return null;
  });
}

const HEADING_CLASSES = {
  md: {
    1: "text-xl font-bold",
    2: "text-lg font-bold",
    3: "text-base font-semibold",
    4: "text-sm font-semibold",
    5: "text-sm font-semibold",
    6: "text-sm font-semibold text-ink-700",
  },
  sm: {
    1: "text-base font-bold",
    2: "text-sm font-bold",
    3: "text-sm font-semibold",
    4: "text-[13px] font-semibold",
    5: "text-[13px] font-semibold",
    6: "text-[13px] font-semibold text-ink-700",
  },
} as const;

type Size = keyof typeof HEADING_CLASSES;

/** The tags of Markdown heading levels 1–6: answers start at h3, a page of its own at h2. */
const HEADING_TAGS = {
  h2: ["h2", "h2", "h3", "h4", "h5", "h6"],
  h3: ["h3", "h3", "h4", "h5", "h6", "h6"],
} as const;
type TopHeading = keyof typeof HEADING_TAGS;

function renderBlocks(
  blocks: Block[],
  size: Size,
  tight = false,
  keyPrefix = "",
  top: TopHeading = "h3",
): ReactNode[] {
  return blocks.map((block, index) => renderBlock(block, `${keyPrefix}${index}`, size, tight, top));
}

function renderBlock(
  block: Block,
  key: string,
  size: Size,
  tight: boolean,
  top: TopHeading,
): ReactNode {
  switch (block.type) {
    case "heading": {
      // Headings inside an answer sit under the page's own headings (h1–h2), so h3 is the top.
      const Tag = HEADING_TAGS[top][block.level - 1] ?? "h6";
      return (
        <Tag
          key={key}
          className={cn("mt-4 mb-2 text-ink-950 first:mt-0", HEADING_CLASSES[size][block.level])}
        >
          {renderInline(block.children)}
        </Tag>
      );
    }
    case "paragraph":
      return tight ? (
        <Fragment key={key}>{renderInline(block.children)}</Fragment>
      ) : (
        <p key={key} className="my-2 first:mt-0 last:mb-0">
          {renderInline(block.children)}
        </p>
      );
    case "code":
      return <MarkdownCode key={key} code={block.text} lang={block.lang} closed={block.closed} />;
    case "quote":
      return (
        <blockquote key={key} className="my-3 border-l-4 border-brand-200 pl-3 text-ink-700 italic">
          {renderBlocks(block.children, size, false, `${key}.`, top)}
        </blockquote>
      );
    case "list": {
      const items = block.items.map((item, itemIndex) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: list items are positional
        <li key={itemIndex} className="pl-1">
          {renderBlocks(item, size, block.tight, `${key}.${itemIndex}.`, top)}
        </li>
      ));
      return block.ordered ? (
        <ol
          key={key}
          start={block.start === 1 ? undefined : block.start}
          className="my-2 list-decimal space-y-1 pl-6 marker:font-semibold marker:text-ink-500"
        >
          {items}
        </ol>
      ) : (
        <ul key={key} className="my-2 list-disc space-y-1 pl-6 marker:text-brand-400">
          {items}
        </ul>
      );
    }
    case "table":
      return (
        <div key={key} className="my-3 overflow-x-auto rounded-lg border border-ink-200">
          <table className="w-full text-left text-sm">
            <thead className="bg-ink-50">
              <tr>
                {block.head.map((cell, c) => (
                  <th
                    // biome-ignore lint/suspicious/noArrayIndexKey: table cells are positional
                    key={c}
                    scope="col"
                    style={{ textAlign: block.align[c] ?? undefined }}
                    className="border-b border-ink-200 px-3 py-2 font-semibold text-ink-900"
                  >
                    {renderInline(cell)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: table rows are positional
                <tr key={r} className="border-b border-ink-100 last:border-0">
                  {row.map((cell, c) => (
                    <td
                      // biome-ignore lint/suspicious/noArrayIndexKey: table cells are positional
                      key={c}
                      style={{ textAlign: block.align[c] ?? undefined }}
                      className="px-3 py-2 align-top"
                    >
                      {renderInline(cell)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case "rule":
      return <hr key={key} className="my-4 border-ink-200" />;
  }
  return null;
}

/**
 * One block of the text. A streaming text's finished blocks are the same objects from one
 * delta to the next (`createMarkdownReader`), so only its last, still growing block is drawn
 * again (decision 077).
 */
const MarkdownBlock = memo(function MarkdownBlock({
  block,
  index,
  size,
  top,
}: {
  block: Block;
  index: number;
  size: Size;
  top: TopHeading;
}) {
  return renderBlock(block, String(index), size, false, top);
});

export interface MarkdownProps {
  text: string;
  className?: string;
  /** "sm" for dense places (an agent's lane): smaller headings. */
  size?: Size;
  /** The tag of the text's top headings: h3 under a page's h2s (default), h2 under its h1. */
  topHeading?: TopHeading;
  /** Sources by number: `[n]` in the text links to them (documents cited in a run). */
  citations?: Citations;
}

export const Markdown = memo(function Markdown({
  text,
  className,
  size = "md",
  topHeading = "h3",
  citations,
}: MarkdownProps) {
  // A text that grows (a streaming lane or answer) reads only its new end (decision 077).
  const [read] = useState(createMarkdownReader);
  const blocks = useMemo(() => read(text), [read, text]);
  return (
    <div className={cn("text-sm leading-6 break-words text-ink-800", className)}>
      <CitationsContext.Provider value={citations ?? null}>
        {blocks.map((block, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: blocks are positional; a kept one keeps its place
          <MarkdownBlock key={index} block={block} index={index} size={size} top={topHeading} />
        ))}
      </CitationsContext.Provider>
    </div>
  );
});
