import { createParser } from "eventsource-parser";

/** One Server-Sent Event: its name ("message" when the server gave none) and its data. */
export interface ServerEvent {
  event: string;
  data: string;
}

/**
 * The events of a Server-Sent Events body as each one completes, from text in pieces of any
 * size (`api.stream(...).chunks()`). The web's one reader of the format is eventsource-parser,
 * the server's too (decision 074): comments are skipped, multi-line data joined, and a final
 * event the server ended without its blank line still counts.
 */
export async function* readEvents(chunks: AsyncIterable<string>): AsyncGenerator<ServerEvent> {
  const ready: ServerEvent[] = [];
  const parser = createParser({
    onEvent: (message) => ready.push({ event: message.event ?? "message", data: message.data }),
  });
  for await (const chunk of chunks) {
    parser.feed(chunk);
    yield* ready.splice(0);
  }
  // Ends a last line and a last event left open when the body ended.
  parser.feed("\n\n");
  yield* ready.splice(0);
}
