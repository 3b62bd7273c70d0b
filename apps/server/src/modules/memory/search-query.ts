/** How many words of a task take part in the search: the first ones say what it is about. */
const MAX_TERMS = 32;

/**
 * A task's words as an OR-query for `to_tsquery`: a memory matches when it shares any word
 * with the task (stemmed, stop words dropped by PostgreSQL), and ranking puts those sharing
 * the most first. Only letters and digits reach the query, so no text can break its syntax.
 */
export function anyWordQuery(text: string, options: { prefix?: boolean } = {}): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [];
  const unique = [...new Set(words)].slice(0, MAX_TERMS);
  // A search box matches words as they are typed ("postg" finds PostgreSQL); a task does not.
  const terms = options.prefix ? unique.map((w) => `${w}:*`) : unique;
  return terms.length > 0 ? terms.join(" | ") : null;
}
