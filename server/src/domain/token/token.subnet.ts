import { BlockList, isIP } from 'node:net';

/** One entry of a token's `subnet` list that is not a CIDR range, or null when all are valid. */
export function findInvalidSubnet(subnets: string): string | null {
  for (const entry of splitSubnets(subnets)) {
    if (!parseCidr(entry)) return entry;
  }
  return null;
}

/** The comma-separated ranges, trimmed, empty entries dropped. */
export const splitSubnets = (subnets: string | null | undefined): string[] =>
  (subnets ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');

interface Cidr {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** Parses `address/prefix` the way Go's net.ParseCIDR accepts it (the prefix is required). */
function parseCidr(entry: string): Cidr | null {
  const match = /^([^/]+)\/(\d{1,3})$/.exec(entry);
  if (!match) return null;
  const address = match[1]!;
  const prefix = Number(match[2]);
  const version = isIP(address);
  if (version === 4 && prefix <= 32) return { address, prefix, family: 'ipv4' };
  if (version === 6 && prefix <= 128) return { address, prefix, family: 'ipv6' };
  return null;
}

/**
 * Whether a client address lies in one of the token's ranges. An empty list allows every address; an
 * IPv4 client also matches when it arrives as an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`).
 */
export function isAddressInSubnets(address: string, subnets: string | null | undefined): boolean {
  if (!subnets) return true;
  const entries = splitSubnets(subnets);
  if (entries.length === 0) return true;
  const list = new BlockList();
  for (const entry of entries) {
    const cidr = parseCidr(entry);
    if (cidr) list.addSubnet(cidr.address, cidr.prefix, cidr.family);
  }
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const candidate = mapped ? mapped[1]! : address;
  const family = isIP(candidate);
  if (family === 0) return false;
  return list.check(candidate, family === 4 ? 'ipv4' : 'ipv6');
}
