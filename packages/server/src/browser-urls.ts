import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', '']);

/** The machine's IPv4 addresses other machines can reach: loopback and link-local ones are of no use to a student. */
export function reachableIPv4(interfaces: Interfaces = networkInterfaces()): string[] {
  const found = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((a) => a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.'))
    .map((a) => a.address);
  return [...new Set(found)];
}

const urlHost = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/**
 * The line `judge serve` and `judge up` print for people: the address to open in a browser. A
 * server listening on every interface names the machine's network addresses, which a lab's
 * students can type, rather than the wildcard, which no browser can open.
 */
export function browserHint(o: { host: string; port: number; publicUrl: string; https?: boolean; interfaces?: Interfaces }): string {
  if (o.publicUrl) return `Open ${o.publicUrl.replace(/\/+$/, '')}/ in a browser.`;
  const scheme = o.https ? 'https' : 'http';
  const local = `${scheme}://${o.host === '::' || o.host === '[::]' ? '[::1]' : '127.0.0.1'}:${o.port}/`;
  if (!WILDCARDS.has(o.host)) return `Open ${scheme}://${urlHost(o.host)}:${o.port}/ in a browser.`;
  const addresses = reachableIPv4(o.interfaces).map((a) => `${scheme}://${a}:${o.port}/`);
  if (addresses.length === 0) return `Open ${local} in a browser on this machine (it has no network address other machines could use).`;
  return `Open ${addresses.join(' or ')} in a browser (also ${local} on this machine).`;
}
