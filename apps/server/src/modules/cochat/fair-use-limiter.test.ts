import { describe, expect, it } from "vitest";
import { createFairUseLimiter } from "./fair-use-limiter";

describe("CoChat fair-use limiter (in memory)", () => {
  it("allows N messages per hour per user, then says how long to wait", async () => {
    let now = 1_000_000;
    const limiter = createFairUseLimiter({ perHour: 3, now: () => now });
    for (let i = 0; i < 3; i++) expect((await limiter.take("u1")).allowed).toBe(true);
    now += 10 * 60_000;
    const refused = await limiter.take("u1");
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.retryAfterSeconds).toBe(50 * 60);
    expect((await limiter.take("u2")).allowed).toBe(true);
    now += 50 * 60_000;
    expect(await limiter.take("u1")).toMatchObject({ allowed: true, remaining: 2 });
  });
});
