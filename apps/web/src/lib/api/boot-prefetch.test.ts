import { afterEach, describe, expect, it } from "vitest";
import { dropPrefetched, prefetchedOr, prefetchOnce, takePrefetched } from "./boot-prefetch";

afterEach(() => dropPrefetched());

describe("boot prefetch (decision 080)", () => {
  it("hands an answer over once, and asks only once per key", async () => {
    let asked = 0;
    const ask = () => {
      asked += 1;
      return Promise.resolve("detail");
    };
    prefetchOnce("session-open:s1", ask);
    prefetchOnce("session-open:s1", ask);
    expect(asked).toBe(1);
    await expect(takePrefetched("session-open:s1")).resolves.toBe("detail");
    expect(takePrefetched("session-open:s1")).toBeNull();
  });

  it("asks again when the prefetch failed or there was none", async () => {
    prefetchOnce("agreement-status", () => Promise.reject(new Error("401")));
    await expect(prefetchedOr("agreement-status", async () => "fresh")).resolves.toBe("fresh");
    await expect(prefetchedOr("agreement-status", async () => "again")).resolves.toBe("again");
  });

  it("uses the prefetched answer instead of asking", async () => {
    prefetchOnce("agreement-status", async () => "early");
    let asked = false;
    const answer = await prefetchedOr("agreement-status", async () => {
      asked = true;
      return "late";
    });
    expect(answer).toBe("early");
    expect(asked).toBe(false);
  });

  it("forgets every answer when the sign-in changes", () => {
    prefetchOnce("session-open:s1", async () => "someone else's session");
    dropPrefetched();
    expect(takePrefetched("session-open:s1")).toBeNull();
  });
});
