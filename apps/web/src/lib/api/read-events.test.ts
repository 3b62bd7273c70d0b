import { describe, expect, it } from "vitest";
import { readEvents } from "./read-events";

async function* pieces(list: readonly string[]) {
  for (const piece of list) yield piece;
}

async function readAll(list: readonly string[]) {
  const events: [string, string][] = [];
  for await (const { event, data } of readEvents(pieces(list))) events.push([event, data]);
  return events;
}

describe("readEvents", () => {
  it("reads named events with JSON data", async () => {
    expect(
      await readAll(['event: start\ndata: {"a":1}\n\nevent: delta\ndata: {"text":"Hi"}\n\n']),
    ).toEqual([
      ["start", '{"a":1}'],
      ["delta", '{"text":"Hi"}'],
    ]);
  });

  it("joins events split anywhere across chunks, including inside \\r\\n", async () => {
    const text = 'event: delta\r\ndata: {"text":"Hello"}\r\n\r\nevent: done\r\ndata: {}\r\n\r\n';
    const oneByOne = await readAll(text.split(""));
    expect(oneByOne).toEqual([
      ["delta", '{"text":"Hello"}'],
      ["done", "{}"],
    ]);
    expect(await readAll([text.slice(0, 13), text.slice(13, 14), text.slice(14)])).toEqual(
      oneByOne,
    );
  });

  it("skips comments, joins multi-line data and defaults the event name", async () => {
    expect(await readAll([": ping\n\ndata: one\ndata: two\n\n"])).toEqual([
      ["message", "one\ntwo"],
    ]);
  });

  it("yields each event as soon as it is complete, before the body ends", async () => {
    let sent = 0;
    async function* slow() {
      sent = 1;
      yield "event: start\ndata: {}\n\n";
      sent = 2;
      yield "event: done\ndata: {}\n\n";
    }
    const events = readEvents(slow());
    expect((await events.next()).value).toEqual({ event: "start", data: "{}" });
    expect(sent).toBe(1);
  });

  it("still counts a last event the server ended without its blank line", async () => {
    expect(await readAll(["event: done\ndata: {}"])).toEqual([["done", "{}"]]);
    expect(await readAll(["event: done\ndata: {}\n"])).toEqual([["done", "{}"]]);
    expect(await readAll(["event: done\ndata: {}\r"])).toEqual([["done", "{}"]]);
  });
});
