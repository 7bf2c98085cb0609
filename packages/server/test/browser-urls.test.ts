import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { browserHint, reachableIPv4 } from '../src/browser-urls.js';

const nic = (address: string, family: 'IPv4' | 'IPv6', internal = false): NetworkInterfaceInfo =>
  ({ address, family, internal, netmask: '', mac: '00:00:00:00:00:00', cidr: null, ...(family === 'IPv6' ? { scopeid: 0 } : {}) }) as NetworkInterfaceInfo;

const LAB = {
  lo: [nic('127.0.0.1', 'IPv4', true), nic('::1', 'IPv6', true)],
  eth0: [nic('192.168.1.20', 'IPv4'), nic('fe80::1', 'IPv6')],
  wlan0: [nic('10.0.0.7', 'IPv4'), nic('169.254.3.4', 'IPv4')],
};

describe('the address printed for browsers', () => {
  it("names the machine's network addresses when listening on every interface, and this machine's own", () => {
    expect(browserHint({ host: '0.0.0.0', port: 8080, publicUrl: '', interfaces: LAB })).toBe(
      'Open http://192.168.1.20:8080/ or http://10.0.0.7:8080/ in a browser (also http://127.0.0.1:8080/ on this machine).',
    );
    expect(browserHint({ host: '::', port: 9000, publicUrl: '', interfaces: LAB })).toBe(
      'Open http://192.168.1.20:9000/ or http://10.0.0.7:9000/ in a browser (also http://[::1]:9000/ on this machine).',
    );
  });

  it('leaves out loopback, link-local and IPv6 addresses, and says when no other machine can reach it', () => {
    expect(reachableIPv4(LAB)).toEqual(['192.168.1.20', '10.0.0.7']);
    expect(browserHint({ host: '0.0.0.0', port: 8080, publicUrl: '', interfaces: { lo: LAB.lo } })).toBe(
      'Open http://127.0.0.1:8080/ in a browser on this machine (it has no network address other machines could use).',
    );
  });

  it('names the one address listened on, or the public URL when one is set', () => {
    expect(browserHint({ host: '127.0.0.1', port: 8080, publicUrl: '', interfaces: LAB })).toBe('Open http://127.0.0.1:8080/ in a browser.');
    expect(browserHint({ host: '192.168.1.20', port: 80, publicUrl: '', interfaces: LAB })).toBe('Open http://192.168.1.20:80/ in a browser.');
    expect(browserHint({ host: 'fd00::5', port: 8080, publicUrl: '', interfaces: LAB })).toBe('Open http://[fd00::5]:8080/ in a browser.');
    expect(browserHint({ host: '0.0.0.0', port: 8080, publicUrl: 'https://judge.school.example/', interfaces: LAB })).toBe('Open https://judge.school.example/ in a browser.');
  });

  it('with built-in HTTPS names https addresses', () => {
    expect(browserHint({ host: '0.0.0.0', port: 8443, publicUrl: '', https: true, interfaces: LAB })).toBe(
      'Open https://192.168.1.20:8443/ or https://10.0.0.7:8443/ in a browser (also https://127.0.0.1:8443/ on this machine).',
    );
    expect(browserHint({ host: '127.0.0.1', port: 8443, publicUrl: '', https: true, interfaces: LAB })).toBe('Open https://127.0.0.1:8443/ in a browser.');
  });
});
