/**
 * An incremental reader of Server-Sent Events (the WHATWG format): feed it text as it
 * arrives, in pieces of any size, and it calls back once per complete event. Comments
 * (`: ping`) are skipped; `id` and `retry` are not used by CoChat and are ignored.
 */
export interface SseParser {
  push(text: string): void;
  /** Dispatches a final event the server ended without a blank line. */
  flush(): void;
}

export function createSseParser(onEvent: (event: string, data: string) => void): SseParser {
  let buffer = "";
  let event = "";
  let data: string[] = [];

  const dispatch = () => {
    if (data.length > 0) onEvent(event || "message", data.join("\n"));
    event = "";
    data = [];
  };

  const line = (text: string) => {
    if (text === "") {
      dispatch();
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  };

  return {
    push(text) {
      buffer += text;
      // Lines end in \n, \r\n or \r; a trailing \r may still be the first half of \r\n.
      for (;;) {
        const match = /\r\n|\n|\r(?!$)/.exec(buffer);
        if (!match) break;
        line(buffer.slice(0, match.index));
        buffer = buffer.slice(match.index + match[0].length);
      }
    },
    flush() {
      if (buffer.length > 0) {
        line(buffer.replace(/\r$/, ""));
        buffer = "";
      }
      dispatch();
    },
  };
}
