import { lazyModule } from "../../platform/lazy-module";
import { withoutNul } from "../../platform/nul";

// Loaded on the first page read, not at start-up (decision 072).
const readability = lazyModule<typeof import("@mozilla/readability")>("@mozilla/readability");
const linkedom = lazyModule<typeof import("linkedom")>("linkedom");
const turndownModule = lazyModule<typeof import("turndown")>("turndown");

/**
 * A fetched page as text a model can read (decision 061): HTML through Readability (the main
 * content, as Firefox's reader view finds it) and Turndown (Markdown); JSON pretty-printed;
 * other text as it is. Anything else (images, PDFs, archives) is not read.
 */

export interface ExtractedText {
  kind: "html" | "json" | "text";
  title: string | null;
  text: string;
  /**
   * The text's length before it was cut: an HTML page's main text beyond what the model is
   * given is never converted, so this counts its characters rather than Markdown's.
   */
  chars: number;
}

export class UnreadableContentError extends Error {
  constructor(readonly mediaType: string) {
    super(
      `read_url reads web pages, JSON and text; this address answered ${mediaType || "binary content"}.`,
    );
    this.name = "UnreadableContentError";
  }
}

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;
const TEXT_TYPE =
  /^(?:text\/[\w.+-]+|application\/(?:[\w.+-]+\+)?xml|application\/(?:javascript|x-ndjson|x-yaml|yaml|toml))$/;

/** Elements that never carry readable text; dropped before extraction. */
/** The few DOM members used here (the server compiles without the DOM library's types). */
interface DomNode {
  nodeType: number;
  textContent: string | null;
  remove(): void;
}
interface DomElement extends DomNode {
  childNodes: ArrayLike<DomNode>;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  innerHTML: string;
}
interface DomDocument {
  body: DomElement | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

/**
 * A whole document, also from a fragment: linkedom builds on the markup's first element, so
 * a page without an <html> element is parsed again inside one.
 */
export function parseDocument(html: string): DomDocument {
  const document = linkedom().parseHTML(html).document as unknown as DomDocument & {
    documentElement: { tagName: string } | null;
  };
  if (document.documentElement?.tagName === "HTML") return document;
  return linkedom().parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`)
    .document as unknown as DomDocument;
}

const ELEMENT_NODE = 1;
/**
 * Above this many elements Readability's scoring takes seconds (decision 061): such a page's
 * body is used as it is, without its noise.
 */
const READABILITY_MAX_ELEMENTS = 8_000;

const NOISE = "script, style, noscript, template, iframe, object, embed, svg, canvas, form";

export function extractText(
  body: Uint8Array,
  page: { mediaType: string; charset: string | undefined; url: URL },
  maxChars: number,
): ExtractedText {
  const kind = kindOf(page.mediaType, body);
  if (!kind) throw new UnreadableContentError(page.mediaType);
  const raw = decode(body, page.charset ?? (kind === "html" ? sniffCharset(body) : undefined));
  if (kind === "json") {
    try {
      return plain("json", withoutNul(JSON.stringify(JSON.parse(raw), null, 2)));
    } catch {
      return plain("text", withoutNul(raw).trimEnd());
    }
  }
  if (kind === "text") return plain(kind, withoutNul(raw).trimEnd());
  return { kind, ...htmlToMarkdown(raw, page.url, maxChars) };
}

function plain(kind: ExtractedText["kind"], text: string): ExtractedText {
  return { kind, title: null, text, chars: text.length };
}

export function kindOf(mediaType: string, body: Uint8Array): ExtractedText["kind"] | null {
  if (HTML_TYPES.has(mediaType)) return "html";
  if (JSON_TYPE.test(mediaType)) return "json";
  if (TEXT_TYPE.test(mediaType)) return "text";
  if (mediaType !== "" && mediaType !== "application/octet-stream") return null;
  // No (useful) type: HTML if it starts like HTML, text if it has no NUL bytes near the start.
  const head = Buffer.from(body.subarray(0, 1024));
  if (head.includes(0)) return null;
  const start = head.toString("latin1").trimStart().slice(0, 100).toLowerCase();
  return start.startsWith("<!doctype html") || start.startsWith("<html") ? "html" : "text";
}

function decode(body: Uint8Array, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    // An unknown charset label: UTF-8, as browsers fall back to.
    return new TextDecoder("utf-8").decode(body);
  }
}

/** `<meta charset>` or its http-equiv form, in the first 2 KB as browsers look for it. */
function sniffCharset(body: Uint8Array): string | undefined {
  const head = Buffer.from(body.subarray(0, 2048)).toString("latin1");
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
}

function htmlToMarkdown(
  html: string,
  url: URL,
  maxChars: number,
): { title: string | null; text: string; chars: number } {
  const article = readArticle(html, url);
  // Only what the model will be given is converted (Turndown is the slow part on long pages):
  // the content is pruned to a little more text than maxChars, whole blocks where possible.
  const chars = (article.content.textContent ?? "").length;
  prune(article.content, maxChars + 1_000);
  const TurndownService = turndownModule();
  const turndown = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
  });
  // Images (often megabytes of data: URIs) say nothing a model can read but their alt text.
  turndown.addRule("images", {
    filter: "img",
    replacement: (_content, node) => {
      const alt = (node as unknown as DomElement).getAttribute("alt")?.trim();
      return alt ? `[image: ${alt}]` : "";
    },
  });
  // Only absolute web links survive (made absolute below); the rest become their text.
  turndown.addRule("links", {
    filter: "a",
    replacement: (content, node) => {
      const href = (node as unknown as DomElement).getAttribute("href") ?? "";
      const text = content.trim();
      if (!text) return "";
      return /^https?:\/\//i.test(href) ? `[${text}](${href})` : text;
    },
  });
  const markdown = withoutNul(
    turndown
      .turndown(article.content.innerHTML)
      .replace(/\n{3,}/g, "\n\n")
      .trim(),
  );
  return {
    title: article.title ? withoutNul(article.title) : null,
    text: markdown,
    chars: Math.max(chars, markdown.length),
  };
}

/** Keeps the first `budget` characters of text under `element` (whole nodes), drops the rest. */
function prune(element: DomElement, budget: number): number {
  let used = 0;
  for (const child of Array.from(element.childNodes)) {
    if (used >= budget) {
      child.remove();
      continue;
    }
    const length = (child.textContent ?? "").length;
    if (used + length <= budget || child.nodeType !== ELEMENT_NODE) {
      used += length;
      continue;
    }
    used += prune(child as DomElement, budget - used);
  }
  return used;
}

/**
 * The page's main content: Readability's article, or (a page that is not an article: a list,
 * a form, a short note; or one too large for Readability to score in good time) the whole
 * body without its noise.
 */
function readArticle(html: string, url: URL): { title: string | null; content: DomElement } {
  const document = parseDocument(html);
  const pageTitle = document.querySelector("title")?.textContent?.trim() || null;
  prepare(document, url);
  const body = () => document.body ?? parseDocument("<p></p>").body;
  if (document.querySelectorAll("*").length > READABILITY_MAX_ELEMENTS) {
    return { title: pageTitle, content: body() as DomElement };
  }
  // Readability takes the article out of the document: the body is kept for the fallback.
  const bodyHtml = document.body?.innerHTML ?? "";
  let article: {
    title?: string | null;
    content?: DomElement | null;
    textContent?: string | null;
  } | null;
  try {
    article = new (readability().Readability)<DomElement>(document as never, {
      charThreshold: 200,
      serializer: (node) => node as unknown as DomElement,
    }).parse();
  } catch {
    article = null;
  }
  if (article?.content && (article.textContent ?? "").trim().length >= 200) {
    return { title: article.title?.trim() || pageTitle, content: article.content };
  }
  return { title: pageTitle, content: parseDocument(bodyHtml).body as DomElement };
}

/** Drops noise and makes links absolute against the page's own address. */
function prepare(document: DomDocument, url: URL): void {
  for (const element of Array.from(document.querySelectorAll(NOISE))) element.remove();
  // A page without <head> has its title and meta tags in the body: not part of the text.
  for (const element of Array.from(document.querySelectorAll("body title, body meta, body link"))) {
    element.remove();
  }
  for (const link of Array.from(document.querySelectorAll("a[href]"))) {
    const href = link.getAttribute("href") ?? "";
    let absolute: URL | null = null;
    try {
      absolute = new URL(href, url);
    } catch {
      absolute = null;
    }
    if (absolute && (absolute.protocol === "http:" || absolute.protocol === "https:")) {
      link.setAttribute("href", absolute.href);
    } else {
      link.removeAttribute("href");
    }
  }
}
