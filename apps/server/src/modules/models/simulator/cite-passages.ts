import type { PromptParts, QuotedPassage } from "./read-prompt";
import { contentWords } from "./subject";

/**
 * How the simulator uses the passages a call was given (decisions 037, 056): it quotes the
 * sentence that best answers its question — the passage, and within it the sentence, sharing
 * the most words with it — and cites it as [n], as a careful model would. Deterministic: the
 * earliest (best ranked) passage and sentence win a tie.
 */

/** Words compared without their plural or possessive ending ("DVDs" is "dvd"). */
function stemsOf(text: string, count: number): Set<string> {
  return new Set(
    contentWords(text, count).map((word) =>
      word
        .replace(/['’]s$/, "")
        .replace(/(?<=[a-z]{3})(?:es|s)$/, "")
        .replace(/ies$/, "y"),
    ),
  );
}

function overlap(wanted: ReadonlySet<string>, text: string): number {
  let shared = 0;
  for (const stem of stemsOf(text, 200)) if (wanted.has(stem)) shared += 1;
  return shared;
}

/** The passage's text without headings and citation marks, cut into sentences. */
function sentencesOf(text: string, section?: string): string[] {
  let body = text.replace(/^\s*#{1,6}\s.*$/gm, "");
  const headingLine = /^\s*[^\n.!?]{1,80}\n/;
  while (headingLine.test(body) && body.replace(headingLine, "").trim()) {
    body = body.replace(headingLine, "");
  }
  if (section && body.trimStart().startsWith(`${section} `)) {
    body = body.trimStart().slice(section.length);
  }
  // A paragraph ends a sentence, and a paragraph that is one short line without a full stop
  // is a heading inside the passage ("Films and music"), not the start of the next sentence.
  const paragraphs = body.split(/\n\s*\n/).filter((p) => p.trim());
  const prose = paragraphs.filter((p) => !HEADING_PARAGRAPH.test(p.trim()));
  return (prose.length > 0 ? prose : paragraphs).flatMap((paragraph) =>
    paragraph
      .replace(/\[\d+\]/g, "")
      .replace(/\s+/g, " ")
      .trim()
      // A full stop ends a sentence only before a space: "1.00 per day" stays whole.
      .split(/(?<=[.!?])\s+/)
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

/** One line of at most 80 characters with no full stop, question or exclamation mark. */
const HEADING_PARAGRAPH = /^[^\n.!?]{1,80}$/;

function shortened(sentence: string): string {
  return sentence.length > 220 ? `${sentence.slice(0, 217).trimEnd()}…` : sentence;
}

/**
 * The passage's first sentence of some substance, without citation marks of its own, nor the
 * headings a chunk starts with (its section's title, short lines without a full stop).
 */
export function quotableSentence(text: string, section?: string): string {
  const sentences = sentencesOf(text, section);
  return shortened(sentences.find((s) => s.split(" ").length >= 4) ?? sentences[0] ?? "");
}

export interface Quote {
  passage: QuotedPassage;
  /** How many of the question's words the sentence shares (0: no passage is about it). */
  shared: number;
  /** The document's name, without its section or page. */
  document: string;
  sentence: string;
}

/** The sentence of the given passages that best fits `about`, or null without passages. */
export function bestQuote(passages: readonly QuotedPassage[], about: string): Quote | null {
  const wanted = stemsOf(about, 40);
  let best: { quote: Quote; score: number } | null = null;
  for (const passage of passages) {
    const [document = passage.source, ...where] = passage.source.split(" — ");
    const section = where.find((part) => !/^page \d+$/.test(part));
    const sentences = sentencesOf(passage.text, section).filter((s) => s.split(" ").length >= 4);
    const candidates = sentences.length > 0 ? sentences : [quotableSentence(passage.text, section)];
    for (const sentence of candidates) {
      // The passage's own rank breaks ties between passages; the sentence's words decide within.
      const shared = overlap(wanted, sentence);
      const score = shared * 2 + (overlap(wanted, passage.text) > 0 ? 1 : 0);
      if (!best || score > best.score) {
        best = { quote: { passage, shared, document, sentence: shortened(sentence) }, score };
      }
    }
  }
  return best?.quote ?? null;
}

/** `text` with a line quoting the best passage for the call and citing it, when it had any. */
export function withCitation(text: string, prompt: PromptParts): string {
  const quote = bestQuote(prompt.passages, `${prompt.task ?? ""} ${prompt.request}`);
  if (!quote) return text;
  return `${text.trimEnd()}\n\n**From the documents:** ${quote.document} says “${quote.sentence}” [${quote.passage.n}]`;
}
