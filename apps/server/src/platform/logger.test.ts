import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, redactUrl } from "./logger";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, logger: createLogger("info", stream) };
}

describe("logger", () => {
  it("redacts every key of the spec's list at any depth", () => {
    const { lines, logger } = capture();
    logger.info(
      {
        password: "p1",
        user: { email: "a@b.c", token: "t1", keys: [{ apiKey: "k1", api_key: "k2" }] },
        headers: { Authorization: "Bearer x" },
        deep: { a: { b: { secret: "s" } } },
      },
      "hello",
    );
    const line = JSON.stringify(lines[0]);
    for (const leaked of ["p1", "t1", "k1", "k2", "Bearer x", '"s"'])
      expect(line).not.toContain(leaked);
    expect(lines[0]).toMatchObject({
      password: "[REDACTED]",
      user: {
        email: "a@b.c",
        token: "[REDACTED]",
        keys: [{ apiKey: "[REDACTED]", api_key: "[REDACTED]" }],
      },
      headers: { Authorization: "[REDACTED]" },
      deep: { a: { b: { secret: "[REDACTED]" } } },
    });
  });

  it("redacts secrets in query strings", () => {
    expect(redactUrl("/api/x?token=abc&page=2")).toBe("/api/x?token=%5BREDACTED%5D&page=2");
    expect(redactUrl("/api/x?page=2")).toBe("/api/x?page=2");
  });
});
