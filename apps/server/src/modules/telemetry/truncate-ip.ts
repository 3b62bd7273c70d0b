import ipaddr from "ipaddr.js";

/**
 * The network an address belongs to, never the address itself: IPv4 to its /24, IPv6 to its
 * /48 (IPv4-mapped IPv6 counts as IPv4). Enough to tell countries and networks apart in the
 * admin views, not enough to single out a household. Unparseable input stores nothing.
 */
export function truncateIp(address: string | undefined): string | null {
  if (!address || !ipaddr.isValid(address)) return null;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (parsed.kind() === "ipv4") {
    const [a, b, c] = (parsed as ipaddr.IPv4).octets;
    return `${a}.${b}.${c}.0/24`;
  }
  const parts = (parsed as ipaddr.IPv6).parts;
  const network = new ipaddr.IPv6([parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, 0, 0, 0, 0, 0]);
  return `${network.toString()}/48`;
}
