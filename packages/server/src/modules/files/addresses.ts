import { BlockList, isIP } from 'node:net';

/**
 * What an address is to POST /files/fetch (decisions §11): `public` is fetched from, every other
 * class never is (`loopback` only where the test setting `files.fetchAllowLoopback` allows it).
 */
export type AddressClass = 'public' | 'unspecified' | 'loopback' | 'private' | 'shared' | 'link-local' | 'multicast' | 'reserved';

/**
 * The ranges of each class (the IANA special-purpose registries), checked in this order. Node's
 * BlockList parses the addresses and checks an IPv4-mapped IPv6 address (::ffff:127.0.0.1)
 * against the IPv4 ranges too. Addresses that carry another one inside them (NAT64, 6to4, Teredo)
 * are refused whole: the address they lead to is not checked, so none of them is trusted.
 */
const RANGES: [Exclude<AddressClass, 'public'>, [string, number, 'ipv4' | 'ipv6'][]][] = [
  [
    'unspecified',
    [
      ['0.0.0.0', 8, 'ipv4'], // "this network"
      ['::', 128, 'ipv6'],
    ],
  ],
  [
    'loopback',
    [
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ],
  ],
  [
    'private',
    [
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      ['fc00::', 7, 'ipv6'], // unique local
      ['fec0::', 10, 'ipv6'], // site-local (deprecated)
    ],
  ],
  ['shared', [['100.64.0.0', 10, 'ipv4']]], // carrier-grade NAT
  [
    'link-local',
    [
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ],
  ],
  [
    'multicast',
    [
      ['224.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
    ],
  ],
  [
    'reserved',
    [
      ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
      ['192.0.2.0', 24, 'ipv4'], // documentation
      ['192.88.99.0', 24, 'ipv4'], // 6to4 relays
      ['198.18.0.0', 15, 'ipv4'], // benchmarking
      ['198.51.100.0', 24, 'ipv4'], // documentation
      ['203.0.113.0', 24, 'ipv4'], // documentation
      ['240.0.0.0', 4, 'ipv4'], // reserved, and the broadcast address
      ['::', 96, 'ipv6'], // IPv4-compatible (deprecated)
      ['64:ff9b::', 96, 'ipv6'], // NAT64
      ['64:ff9b:1::', 48, 'ipv6'], // local NAT64
      ['100::', 64, 'ipv6'], // discard
      ['2001::', 23, 'ipv6'], // IETF protocol assignments, Teredo among them
      ['2001:db8::', 32, 'ipv6'], // documentation
      ['2002::', 16, 'ipv6'], // 6to4
      ['3fff::', 20, 'ipv6'], // documentation
    ],
  ],
];

const LISTS: [Exclude<AddressClass, 'public'>, BlockList][] = RANGES.map(([cls, ranges]) => {
  const list = new BlockList();
  for (const [net, prefix, family] of ranges) list.addSubnet(net, prefix, family);
  return [cls, list];
});

/**
 * The class of an IP address as a resolver or a URL gives it (an IPv6 zone, `%eth0`, is ignored).
 * Anything that is not an address at all is `reserved`: never contacted.
 */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return 'reserved';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [cls, list] of LISTS) if (list.check(bare, type)) return cls;
  return 'public';
}

/** Whether POST /files/fetch may connect to an address of this class. */
export function addressAllowed(cls: AddressClass, allowLoopback: boolean): boolean {
  return cls === 'public' || (cls === 'loopback' && allowLoopback);
}
