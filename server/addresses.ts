import net from 'node:net';

/**
 * Names proxy-addr (Fastify's `trustProxy`) accepts in place of addresses, as in
 * PARLEY_TRUSTED_PROXIES=loopback.
 */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** The loopback addresses, which may always read the metrics. */
export const LOOPBACK = NAMED_RANGES.loopback;

/** Splits a comma-separated list, as the environment variables write them. */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Whether `entry` is an address, an address/prefix, or (with `named`) one of proxy-addr's names. */
export function isAddressOrRange(entry: string, named = false): boolean {
  if (named && entry in NAMED_RANGES) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/**
 * A set of addresses and ranges (CIDRs); IPv4 addresses written as IPv6 (`::ffff:127.0.0.1`,
 * how a dual-stack socket reports them) match their IPv4 ranges.
 */
export class AddressSet {
  private readonly list = new net.BlockList();

  constructor(entries: readonly string[]) {
    for (const entry of entries.flatMap((e) => NAMED_RANGES[e] ?? [e])) {
      const [address, prefix] = entry.split('/');
      const family = net.isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.list.addAddress(address, family);
      else this.list.addSubnet(address, Number(prefix), family);
    }
  }

  has(address: string | undefined): boolean {
    if (!address) return false;
    const family = net.isIP(address);
    return family !== 0 && this.list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  }
}
