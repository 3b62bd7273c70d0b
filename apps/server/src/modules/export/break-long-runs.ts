/**
 * The longest run of characters the PDF's line breaker is given without a break it can
 * certainly use. pdfkit breaks a word wider than the line by measuring the whole rest of the
 * word again for every line it fills, quadratic in the word's length (a 20,000-character
 * word took 10 s, a 4 MB one minutes; decision 050); at this length that costs nothing.
 */
export const MAX_UNBROKEN_RUN = 400;

/**
 * A space is a certain break for Unicode line breaking (UAX #14) when a letter, digit or
 * common closing punctuation stands before it and a letter or digit after it; other spaces
 * may be glued to their neighbours (after an opening bracket, before closing punctuation),
 * so they do not count as breaks here.
 */
const BEFORE_BREAK = /[\p{L}\p{N}.,;:!?)\]}"'’”]/u;
const AFTER_BREAK = /[\p{L}\p{N}]/u;

/**
 * The text with a line break ("\n") inserted into every run of more than MAX_UNBROKEN_RUN
 * characters that has no certain break, so the line breaker never sees a longer word; text
 * that breaks normally is returned as it is. Linear in the text's length: each character is
 * looked at once. A run is cut between code points, never inside a surrogate pair.
 */
export function breakLongRuns(text: string, max = MAX_UNBROKEN_RUN): string {
  if (text.length <= max) return text;
  let out = "";
  let from = 0;
  let run = 0;
  let previous = "";
  let beforeSpaces = "";
  for (let i = 0; i < text.length; ) {
    const char = String.fromCodePoint(text.codePointAt(i) as number);
    const afterSpace = previous === " " || previous === "\t";
    if (char === "\n") {
      run = 0;
    } else if (afterSpace && BEFORE_BREAK.test(beforeSpaces) && AFTER_BREAK.test(char)) {
      run = 1;
    } else {
      if (run >= max) {
        out += `${text.slice(from, i)}\n`;
        from = i;
        run = 0;
      }
      run += 1;
      if ((char === " " || char === "\t") && !afterSpace) beforeSpaces = previous;
    }
    previous = char;
    i += char.length;
  }
  return from === 0 ? text : out + text.slice(from);
}
