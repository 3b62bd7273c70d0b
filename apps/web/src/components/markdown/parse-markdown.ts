/**
 * The one Markdown reader lives in contracts (the server draws the same tree into PDF
 * exports); the web app's components import it from here.
 */
export {
  type Align,
  type Block,
  createMarkdownReader,
  type Inline,
  parseInline,
  parseMarkdown,
  safeHref,
  safeImageSrc,
} from "@cohort/contracts";
