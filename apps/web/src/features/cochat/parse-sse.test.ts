import { describe, expect, it } from "vitest";
import { createSseParser } from "./parse-sse";

function parseAll(pieces: string[], flush = false) {
  const events: [string, string][] = [];
  const parser = createSseParser((event, data) => events.push([event, data]));
  for (const piece of pieces) parser.push(piece);
  if (flush) parser.flush();
  return events;
}

describe("createSseParser", () => {
  it("reads named events with JSON data", () => {
    expect(
      parseAll(['event: start\ndata: {"a":1}\n\nevent: delta\ndata: {"text":"Hi"}\n\n']),
    ).toEqual([
      ["start", '{"a":1}'],
      ["delta", '{"text":"Hi"}'],
    ]);
  });

  it("joins events split anywhere across chunks, including inside \\r\\n", () => {
    const text = 'event: delta\r\ndata: {"text":"Hello"}\r\n\r\nevent: done\r\ndata: {}\r\n\r\n';
    const oneByOne = parseAll(text.split(""));
    expect(oneByOne).toEqual([
      ["delta", '{"text":"Hello"}'],
      ["done", "{}"],
    ]);
    expect(parseAll([text.slice(0, 13), text.slice(13, 14), text.slice(14)])).toEqual(oneByOne);
  });

  it("skips comments, joins multi-line data and defaults the event name", () => {
    expect(parseAll([": ping\n\ndata: one\ndata: two\n\n"])).toEqual([["message", "one\ntwo"]]);
  });

  it("waits for the blank line, unless flushed at the end of the stream", () => {
    expect(parseAll(["event: done\ndata: {}"])).toEqual([]);
    expect(parseAll(["event: done\ndata: {}"], true)).toEqual([["done", "{}"]]);
  });
});
