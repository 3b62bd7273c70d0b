/** A draft of `words` words: streamed a word per chunk, it takes words × chunkDelayMs. */
export function longDraft(words: number, marker = "draft"): string {
  return Array.from({ length: words }, (_, i) => `${marker}${i + 1}`).join(" ");
}
