/**
 * Every spelling of an inward address the security suite knows (security/ssrf.test.ts), by
 * the reason the SSRF guard (platform/ssrf.ts) must give: shared by every test of a feature
 * that fetches addresses users (or models) give, so none of them checks fewer forms.
 */

/** An IPv4 address as the integer the URL parser also accepts as a host. */
function v4Number(address: string): number {
  return address.split(".").reduce((n, octet) => n * 256 + Number(octet), 0);
}

/** The two 16-bit groups an IPv6 address embeds an IPv4 address as. */
function v4Groups(address: string): [string, string] {
  const n = v4Number(address);
  return [Math.floor(n / 65536).toString(16), (n % 65536).toString(16)];
}

/**
 * Every spelling of one IPv4 address a URL can carry: dotted, one decimal, hex and octal
 * integer, hex and octal octets, and the IPv6 forms that reach it (IPv4-mapped, -compatible,
 * -translated, NAT64 and 6to4). The URL parser normalises the IPv4 spellings; the guard
 * must see through the IPv6 ones itself.
 */
export function formsOf(address: string): string[] {
  const n = v4Number(address);
  const octets = address.split(".").map(Number);
  const [high, low] = v4Groups(address);
  return [
    address,
    String(n),
    `0x${n.toString(16)}`,
    `0${n.toString(8)}`,
    octets.map((o) => `0x${o.toString(16)}`).join("."),
    octets.map((o) => `0${o.toString(8)}`).join("."),
    `${address}.`,
    `[::ffff:${address}]`,
    `[::ffff:${high}:${low}]`,
    `[0:0:0:0:0:ffff:${address}]`,
    `[::${address}]`,
    `[::ffff:0:${address}]`,
    `[64:ff9b::${address}]`,
    `[64:ff9b::${high}:${low}]`,
    `[2002:${high}:${low}::]`,
    `[2002:${high}:${low}:1::1]`,
  ];
}

export const CLOUD_METADATA_V4 = [
  "169.254.169.254", // AWS, GCP, Azure, OpenStack IMDS
  "169.254.170.2", // AWS ECS task metadata
  "169.254.170.23", // AWS EKS pod identity agent
  "100.100.100.200", // Alibaba Cloud
  "168.63.129.16", // Azure WireServer: a public address
];
export const CLOUD_METADATA_V6 = ["[fd00:ec2::254]", "[fd00:ec2:0:0:0:0:0:254]", "[FD00:EC2::254]"];
export const ALL_METADATA_HOSTS = [...CLOUD_METADATA_V4.flatMap(formsOf), ...CLOUD_METADATA_V6];

/** Hosts by the reason the guard must give; each class in its IPv4, IPv6 and embedded forms. */
export const INWARD_HOSTS: Record<string, string[]> = {
  loopback: [
    ...formsOf("127.0.0.1"),
    "127.9.9.9",
    "127.1",
    "0x7f.1",
    "%31%32%37.0.0.1",
    "１２７.０.０.１",
    "[::1]",
    "[0:0:0:0:0:0:0:1]",
    "localhost",
  ],
  private: [
    ...formsOf("10.0.0.1"),
    "172.16.0.1",
    "172.31.255.254",
    "192.168.1.1",
    "[::ffff:192.168.1.1]",
    "[64:ff9b::172.16.0.1]",
    "[fd00::1]",
    "[fc00::1]",
    "[fec0::1]",
    "[64:ff9b:1::1]",
  ],
  "link-local": [...formsOf("169.254.1.1"), "[fe80::1]", "[fe80::1:2:3:4]"],
  "carrier-grade-nat": [...formsOf("100.64.0.1"), "100.127.255.254"],
  unspecified: [...formsOf("0.0.0.0"), "0", "0.1.2.3", "[::]", "[0:0:0:0:0:0:0:0]"],
  multicast: [...formsOf("224.0.0.1"), "239.255.255.250", "[ff02::1]", "[ff0e::1]"],
};

/** The DNS of an app that allows no inward network: a public name, and names split with loopback. */
export const PUBLIC_ONLY_DNS: Record<string, string[]> = {
  "public.example.test": ["93.184.216.34"],
  "split.example.test": ["93.184.216.34", "127.0.0.1"],
  "split6.example.test": ["93.184.216.34", "::1"],
  localhost: ["127.0.0.1", "::1"],
};

/** Names that resolve inward (another address, cloud metadata, an IPv6 spelling, mixed answers). */
const INWARD_DNS: Record<string, string[]> = {
  "inward.example.test": ["10.0.0.8"],
  "inside.example.test": ["127.0.0.2"],
  "meta.example.test": ["169.254.169.254"],
  "meta-nat64.example.test": ["64:ff9b::a9fe:a9fe"],
  "mapped-loopback.example.test": ["::ffff:127.0.0.2"],
  "mixed.example.test": ["127.0.0.1", "10.0.0.8"],
  "mixed-meta.example.test": ["127.0.0.1", "169.254.170.2"],
  "mixed-inside.example.test": ["127.0.0.1", "127.0.0.2"],
};

/**
 * Sets the DNS table of an app that allows 127.0.0.1 back to what each test starts from:
 * `allowedName` on 127.0.0.1 and every inward name, without the names a test re-pointed.
 */
export function resetLanDns(dns: Record<string, string[]>, allowedName: string): void {
  for (const name of Object.keys(dns)) delete dns[name];
  Object.assign(dns, structuredClone({ [allowedName]: ["127.0.0.1"], ...INWARD_DNS }));
}

/** Loopback addresses beside 127.0.0.1, in several spellings: refused where only 127.0.0.1/32 is allowed. */
export const LOOPBACK_BESIDE_ALLOWED = [
  "127.0.0.2",
  "[::1]",
  "[::ffff:127.0.0.2]",
  "[2002:7f00:2::]",
  "127.1.0.1",
];
