import { Writable } from "node:stream";

/** A log stream for `createTestApp`, and the JSON lines the app wrote to it, in order. */
export function logCollector<Line = Record<string, unknown>>() {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
}
