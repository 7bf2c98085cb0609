import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, externalHostProblem, SetExternalContentRequest } from '@judge/contract';
import { classifyAddress } from '../src/modules/files/addresses.js';
import { dispositionName, ExternalFetch, hostAllowed, mimeOf, type Resolver } from '../src/modules/files/fetch.js';

// decisions §11: the pure parts of POST /files/fetch (files-fetch.test.ts drives it over HTTP)

describe('address classes', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['::ffff:192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.254', 'shared'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['64:ff9b::a00:1', 'reserved'],
    ['2002:a00:1::', 'reserved'],
    ['2001::1', 'reserved'],
    ['::7f00:1', 'reserved'],
    ['not-an-address', 'reserved'],
  ])('%s is %s', (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '11.0.0.1', '2606:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8', '[2606:4700::1111]'])(
    '%s is public',
    (address) => {
      expect(classifyAddress(address)).toBe('public');
    },
  );
});

describe('external-content entries', () => {
  it('takes host names, IPv4 addresses, *.domain and :port', () => {
    for (const ok of ['github.io', '*.github.io', 'raw.githubusercontent.com', 'files.example.org:8443', '*.example.org:8080', '127.0.0.1', 'localhost', 'xn--bcher-kva.example']) {
      expect(externalHostProblem(ok), ok).toBeUndefined();
    }
  });

  it.each([
    ['https://github.io', /scheme/],
    ['github.io/path', /path/],
    ['user@github.io', /user name/],
    ['[::1]', /IPv6/],
    ['::1', /IPv6/],
    ['github.io:0', /port/],
    ['github.io:70000', /port/],
    ['github.io:http', /port/],
    ['gith*b.io', /wildcard/],
    ['*', /not a host name|wildcard/],
    ['*.com', /top-level/],
    ['-bad.example', /not a host name/],
    ['bad_name.example', /not a host name/],
    ['bücher.example', /xn--/],
    ['', /not a host name/],
  ])('refuses %j', (entry, why) => {
    expect(externalHostProblem(entry)).toMatch(why);
  });

  it('the request lowercases, drops duplicates, sorts, and names a refused entry', () => {
    expect(SetExternalContentRequest.parse({ hosts: [' Files.Example.org ', '*.GitHub.io', 'files.example.org'] })).toEqual({ hosts: ['*.github.io', 'files.example.org'] });
    const r = SetExternalContentRequest.safeParse({ hosts: ['ok.example', 'https://bad.example/x'] });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]).toMatchObject({ path: ['hosts', 1], message: expect.stringContaining('"https://bad.example/x"') });
    expect(SetExternalContentRequest.safeParse({ hosts: Array.from({ length: 101 }, (_, i) => `h${i}.example`) }).success).toBe(false);
  });
});

describe('matching a URL against the list', () => {
  const allowed = (url: string, hosts: string[]) => hostAllowed(new URL(url), hosts);

  it('an entry names a host exactly; *.domain any name under it, not the domain itself', () => {
    expect(allowed('https://github.io/x', ['github.io'])).toBe(true);
    expect(allowed('https://GitHub.IO./x', ['github.io'])).toBe(true);
    expect(allowed('https://a.github.io/x', ['github.io'])).toBe(false);
    expect(allowed('https://a.github.io/x', ['*.github.io'])).toBe(true);
    expect(allowed('https://a.b.github.io/x', ['*.github.io'])).toBe(true);
    expect(allowed('https://github.io/x', ['*.github.io'])).toBe(false);
    expect(allowed('https://evilgithub.io/x', ['*.github.io'])).toBe(false);
    expect(allowed('https://github.io.evil.example/x', ['github.io', '*.github.io'])).toBe(false);
  });

  it('without a port only the default ports; with one, that port only', () => {
    expect(allowed('http://files.example:80/x', ['files.example'])).toBe(true);
    expect(allowed('https://files.example:443/x', ['files.example'])).toBe(true);
    expect(allowed('http://files.example:443/x', ['files.example'])).toBe(false);
    expect(allowed('https://files.example:8443/x', ['files.example'])).toBe(false);
    expect(allowed('https://files.example:8443/x', ['files.example:8443'])).toBe(true);
    expect(allowed('https://files.example/x', ['files.example:8443'])).toBe(false);
    expect(allowed('https://files.example/x', ['files.example:443'])).toBe(true);
  });

  it('an address in another spelling is the address it spells', () => {
    expect(allowed('http://2130706433/x', ['127.0.0.1'])).toBe(true);
    expect(allowed('http://[::1]/x', ['127.0.0.1', 'localhost'])).toBe(false);
  });
});

describe('names and types of a fetched file', () => {
  it('reads filename* before filename, and keeps only a last path segment without control characters', () => {
    expect(dispositionName(`attachment; filename="plain.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`)).toBe('résumé.pdf');
    expect(dispositionName('attachment; filename="a \\"quoted\\" name.txt"')).toBe('a "quoted" name.txt');
    expect(dispositionName('attachment; filename=token.zip')).toBe('token.zip');
    expect(dispositionName('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(dispositionName('attachment; filename="a\u0001b.txt"')).toBe('ab.txt');
    expect(dispositionName('attachment; filename=".."')).toBeUndefined();
    expect(dispositionName('attachment')).toBeUndefined();
    expect(dispositionName(undefined)).toBeUndefined();
  });

  it('keeps the media type without parameters, or application/octet-stream', () => {
    expect(mimeOf('Text/Plain; charset=utf-8')).toBe('text/plain');
    expect(mimeOf('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(mimeOf('text/html\r\nX-Evil: 1')).toBe('application/octet-stream');
    expect(mimeOf('nonsense')).toBe('application/octet-stream');
    expect(mimeOf(undefined)).toBe('application/octet-stream');
  });
});

describe('resolving: every address is checked, and only checked ones are connected to', () => {
  let server: Server;
  let port: number;
  let hostsSeen: string[];
  let dir: string;

  beforeAll(async () => {
    hostsSeen = [];
    server = createServer((req, res) => {
      hostsSeen.push(req.headers.host ?? '');
      res.end('rebound');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    dir = mkdtempSync(join(tmpdir(), 'judge-fetch-'));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  let n = 0;
  const fetcher = (resolve: Resolver, allowLoopback = true) =>
    new ExternalFetch({ maxBytes: 1024, timeoutMs: 5000, allowLoopback, resolve, tempPath: () => join(dir, `t${n++}`) });
  const refusal = async (p: Promise<unknown>) => {
    const e = await p.then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  };

  it('a name with one forbidden address among public ones is refused, without a connection', async () => {
    const resolve: Resolver = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ];
    const e = await refusal(fetcher(resolve).download(`http://mixed.example:${port}/`, [`mixed.example:${port}`]));
    expect(e.code).toBe('fetch.address.forbidden');
    expect(e.message).toMatch(/10\.0\.0\.1.*private/);
    expect(hostsSeen).toEqual([]);
  });

  it('an IPv4-mapped loopback address is loopback', async () => {
    const resolve: Resolver = async () => [{ address: '::ffff:127.0.0.1', family: 6 }];
    const e = await refusal(fetcher(resolve, false).download(`http://mapped.example:${port}/`, [`mapped.example:${port}`]));
    expect(e.code).toBe('fetch.address.forbidden');
  });

  it('connects to the address it checked, asking for the name (Host) it was given', async () => {
    let asked = 0;
    // a resolver that answers differently the second time, as a rebinding attacker's does
    const resolve: Resolver = async () => (asked++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.1', family: 4 }]);
    const got = await fetcher(resolve).download(`http://rebind.example:${port}/file.txt`, [`rebind.example:${port}`]);
    expect(asked).toBe(1);
    expect(hostsSeen).toEqual([`rebind.example:${port}`]);
    expect(got).toMatchObject({ name: 'file.txt', sizeBytes: 7, host: 'rebind.example', redirects: 0 });
  });

  it('a name that does not resolve is fetch.failed; a resolver slower than the limit is fetch.timeout', async () => {
    const gone: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect((await refusal(fetcher(gone).download('http://gone.example/', ['gone.example']))).code).toBe('fetch.failed');
    const slow: Resolver = () => new Promise((r) => setTimeout(() => r([{ address: '127.0.0.1', family: 4 }]), 3000));
    const quick = new ExternalFetch({ maxBytes: 1024, timeoutMs: 300, allowLoopback: true, resolve: slow, tempPath: () => join(dir, `t${n++}`) });
    expect((await refusal(quick.download('http://slow.example/', ['slow.example']))).code).toBe('fetch.timeout');
  });

  it('https: the certificate is checked against the name asked for (sent as SNI), never skipped', async () => {
    const key = join(dir, 'tls.key');
    const cert = join(dir, 'tls.crt');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=secure.example', '-addext', 'subjectAltName=DNS:secure.example', '-keyout', key, '-out', cert], { stdio: 'ignore' });
    const names: string[] = [];
    const tls = createTlsServer({ key: readFileSync(key), cert: readFileSync(cert), SNICallback: (name, cb) => (names.push(name), cb(null)) }, (_q, r) => r.end('secret'));
    await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
    try {
      const tlsPort = (tls.address() as AddressInfo).port;
      const e = await refusal(fetcher(async () => [{ address: '127.0.0.1', family: 4 }]).download(`https://secure.example:${tlsPort}/`, [`secure.example:${tlsPort}`]));
      // a self-signed certificate is not trusted, whatever name it bears
      expect(e.code).toBe('fetch.failed');
      expect(e.message).toMatch(/SELF_SIGNED|CERT/);
      expect(names).toEqual(['secure.example']);
    } finally {
      tls.closeAllConnections();
      await new Promise((r) => tls.close(r));
    }
  });
});
