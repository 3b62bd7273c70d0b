import { describe, expect, it } from "vitest";
import {
  classifyAddress,
  createSsrfGuard,
  type HostResolver,
  parseNetwork,
  UrlNotAllowedError,
} from "./ssrf";

/** DNS answers from a table: no test here asks a real resolver. */
function fakeDns(table: Record<string, string[]>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    return (table[hostname] ?? []).map((address) => ({
      address,
      family: address.includes(":") ? (6 as const) : (4 as const),
    }));
  };
  return Object.assign(resolve, { asked });
}

describe("classifyAddress", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["1.1.1.1", "public"],
    ["172.32.0.1", "public"],
    ["100.128.0.1", "public"],
    ["2606:4700:4700::1111", "public"],
    ["::ffff:8.8.8.8", "public"],
    ["64:ff9b::808:808", "public"],
  ])("%s is public", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    // loopback, in every spelling that reaches it
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::127.0.0.1", "loopback"],
    ["::ffff:0:127.0.0.1", "loopback"],
    ["64:ff9b::127.0.0.1", "loopback"],
    ["64:ff9b::7f00:1", "loopback"],
    ["2002:7f00:1::1", "loopback"],
    // private networks
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.0.1", "private"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:c0a8:101", "private"],
    ["64:ff9b::192.168.1.1", "private"],
    ["64:ff9b:1::a00:1", "private"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["fec0::1", "private"],
    // carrier-grade NAT
    ["100.64.0.1", "carrier-grade-nat"],
    ["100.127.255.254", "carrier-grade-nat"],
    ["::ffff:100.64.0.1", "carrier-grade-nat"],
    // link-local and cloud metadata
    ["169.254.1.1", "link-local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    ["169.254.169.254", "metadata"],
    ["::ffff:169.254.169.254", "metadata"],
    ["::ffff:a9fe:a9fe", "metadata"],
    ["64:ff9b::a9fe:a9fe", "metadata"],
    // unspecified
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["::", "unspecified"],
    ["::ffff:0.0.0.0", "unspecified"],
    // multicast
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["ff02::1", "multicast"],
    ["::ffff:224.0.0.1", "multicast"],
    // reserved and special purpose
    ["255.255.255.255", "reserved"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["2001:db8::1", "reserved"],
    ["2001::1", "reserved"],
    ["100::1", "reserved"],
    ["not-an-ip", "reserved"],
    // every metadata address, and in a private NAT64 prefix at each RFC 6052 position
    ["169.254.170.2", "metadata"],
    ["169.254.170.23", "metadata"],
    ["100.100.100.200", "metadata"],
    ["168.63.129.16", "metadata"],
    ["fd00:ec2::254", "metadata"],
    ["::ffff:168.63.129.16", "metadata"],
    ["2002:6464:64c8::1", "metadata"],
    ["64:ff9b:1::a9fe:a9fe", "metadata"],
    ["64:ff9b:1:a9fe:a9:fe00::", "metadata"],
    ["64:ff9b:1:0:a9:fea9:fe00:0", "metadata"],
    ["64:ff9b:1::1", "private"],
  ])("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe("parseNetwork", () => {
  it("reads CIDR ranges and single addresses, and refuses nonsense", () => {
    const shape = (text: string) => {
      const [address, prefix] = parseNetwork(text);
      return { kind: address.kind(), prefix };
    };
    expect(shape("10.0.0.0/8")).toEqual({ kind: "ipv4", prefix: 8 });
    expect(shape("fd00::/8")).toEqual({ kind: "ipv6", prefix: 8 });
    expect(shape("127.0.0.1")).toEqual({ kind: "ipv4", prefix: 32 });
    expect(() => parseNetwork("10.0.0.0/33")).toThrow();
    expect(() => parseNetwork("10.0.0.0/-1")).toThrow();
    expect(() => parseNetwork("0x7f.1/8")).toThrow();
    expect(() => parseNetwork("example.com/8")).toThrow();
  });
});

describe("checkUrl", () => {
  const dns = fakeDns({
    "api.example.test": ["93.184.216.34"],
    "v6.example.test": ["2606:4700::6810:84e5"],
    "internal.example.test": ["10.0.0.7"],
    "mixed.example.test": ["93.184.216.34", "192.168.1.20"],
    "metadata.example.test": ["169.254.169.254"],
    "mapped.example.test": ["::ffff:127.0.0.1"],
    "nat64.example.test": ["64:ff9b::a00:1"],
    "lan.example.test": ["192.168.1.20"],
  });
  const guard = createSsrfGuard({ resolve: dns });

  async function refusal(url: string, g = guard) {
    const error = await g.checkUrl(url).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UrlNotAllowedError);
    return error as UrlNotAllowedError;
  }

  it("passes public names and addresses, keeping the checked addresses for the connection", async () => {
    const checked = await guard.checkUrl("https://api.example.test/v1");
    expect(checked.addresses).toEqual([{ address: "93.184.216.34", family: 4 }]);
    await expect(guard.checkUrl("http://v6.example.test:8080/v1")).resolves.toBeTruthy();
    await expect(guard.checkUrl("http://93.184.216.34/v1")).resolves.toBeTruthy();
  });

  it.each([
    ["http://127.0.0.1:11434/v1", "loopback"],
    ["http://[::1]/v1", "loopback"],
    ["http://[::ffff:127.0.0.1]/v1", "loopback"],
    ["http://[::ffff:7f00:1]/v1", "loopback"],
    ["http://2130706433/v1", "loopback"],
    ["http://0x7f.1/v1", "loopback"],
    ["http://10.1.2.3/v1", "private"],
    ["http://172.20.0.1/v1", "private"],
    ["http://192.168.0.10/v1", "private"],
    ["http://[fd00::1]/v1", "private"],
    ["http://100.64.1.1/v1", "carrier-grade-nat"],
    ["http://169.254.169.254/latest/meta-data/", "metadata"],
    ["http://169.254.10.10/", "link-local"],
    ["http://[fe80::1]/", "link-local"],
    ["http://0.0.0.0/", "unspecified"],
    ["http://[::]/", "unspecified"],
    ["http://224.0.0.251/", "multicast"],
    ["http://[64:ff9b::7f00:1]/", "loopback"],
    ["http://internal.example.test/v1", "private"],
    ["http://metadata.example.test/", "metadata"],
    ["http://mapped.example.test/", "loopback"],
    ["http://nat64.example.test/", "private"],
  ])("refuses %s (%s)", async (url, reason) => {
    expect((await refusal(url)).reason).toBe(reason);
  });

  it("refuses a name when any of its addresses is not public", async () => {
    expect((await refusal("https://mixed.example.test/v1")).reason).toBe("private");
  });

  it("refuses other schemes, embedded credentials and names without an answer", async () => {
    expect((await refusal("file:///etc/passwd")).reason).toBe("scheme");
    expect((await refusal("gopher://api.example.test/")).reason).toBe("scheme");
    expect((await refusal("https://user:pw@api.example.test/v1")).reason).toBe("credentials");
    expect((await refusal("https://nowhere.example.test/v1")).reason).toBe("dns");
    expect((await refusal("not a url")).reason).toBe("invalid");
  });

  it("names the class of address in words, for the user", async () => {
    expect((await refusal("http://internal.example.test/v1")).message).toBe(
      "internal.example.test points to a private network address, which Cohort does not call. Use your server's public address.",
    );
  });

  it("lets an operator allow chosen networks, but never cloud metadata", async () => {
    const lan = createSsrfGuard({
      resolve: dns,
      allowedNetworks: ["192.168.1.0/24", "169.254.0.0/16"],
    });
    await expect(lan.checkUrl("http://lan.example.test/v1")).resolves.toBeTruthy();
    await expect(lan.checkUrl("http://[::ffff:192.168.1.5]/v1")).resolves.toBeTruthy();
    expect((await refusal("http://192.168.2.1/v1", lan)).reason).toBe("private");
    expect((await refusal("http://metadata.example.test/", lan)).reason).toBe("metadata");
    expect(lan.addressAllowed("169.254.1.1")).toEqual({ allowed: true, kind: "link-local" });
  });
});
