import type { PromptParts, QuotedPassage } from "./read-prompt";
import { contentWords } from "./subject";

/**
 * How the simulator uses the passages a call was given (decision 037): it quotes one
 * sentence of the passage that best fits its task and cites it as [n], as a careful model
 * would. Deterministic: the best fit by shared words, the earliest (best ranked) on a tie.
 */
function bestPassage(passages: readonly QuotedPassage[], about: string): QuotedPassage | null {
  const wanted = new Set(contentWords(about, 40));
  let best: QuotedPassage | null = null;
  let bestScore = -1;
  for (const passage of passages) {
    const score = contentWords(passage.text, 200).filter((w) => wanted.has(w)).length;
    if (score > bestScore) {
      best = passage;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The passage's first sentence of some substance, without citation marks of its own, nor the
 * headings a chunk starts with (its section's title, short lines without a full stop).
 */
export function quotableSentence(text: string, section?: string): string {
  let body = text.replace(/^\s*#{1,6}\s.*$/gm, "");
  const headingLine = /^\s*[^\n.!?]{1,80}\n/;
  while (headingLine.test(body) && body.replace(headingLine, "").trim()) {
    body = body.replace(headingLine, "");
  }
  if (section && body.trimStart().startsWith(`${section} `)) {
    body = body.trimStart().slice(section.length);
  }
  const clean = body
    .replace(/\[\d+\]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  const sentences = clean.match(/[^.!?]+[.!?]?/g) ?? [clean];
  const sentence =
    sentences.map((s) => s.trim()).find((s) => s.split(" ").length >= 4) ?? sentences[0] ?? "";
  const trimmed = sentence.trim();
  return trimmed.length > 220 ? `${trimmed.slice(0, 217).trimEnd()}…` : trimmed;
}

/** `text` with a line quoting the best passage for the call and citing it, when it had any. */
export function withCitation(text: string, prompt: PromptParts): string {
  const passage = bestPassage(prompt.passages, `${prompt.task ?? ""} ${prompt.request}`);
  if (!passage) return text;
  const [document = passage.source, ...where] = passage.source.split(" — ");
  const section = where.find((part) => !/^page \d+$/.test(part));
  return `${text.trimEnd()}\n\n**From the documents:** ${document} says “${quotableSentence(passage.text, section)}” [${passage.n}]`;
}
