import { describe, expect, it } from "vitest";
import { truncateIp } from "./truncate-ip";

describe("truncateIp", () => {
  it("keeps an IPv4 address's /24 only", () => {
    expect(truncateIp("203.0.113.77")).toBe("203.0.113.0/24");
    expect(truncateIp("::ffff:198.51.100.9")).toBe("198.51.100.0/24");
  });

  it("keeps an IPv6 address's /48 only", () => {
    expect(truncateIp("2001:db8:abcd:12:1:2:3:4")).toBe("2001:db8:abcd::/48");
    expect(truncateIp("::1")).toBe("::/48");
  });

  it("stores nothing for what is not an address", () => {
    expect(truncateIp(undefined)).toBeNull();
    expect(truncateIp("not-an-ip")).toBeNull();
  });
});
