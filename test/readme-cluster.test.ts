import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testServer } from '../packages/server/test/pg-cluster.js';
import { JUDGE } from '../packages/server/test/support/judge-process.js';
import { freePort, https } from '../packages/server/test/support/https-request.js';
import { until } from '../packages/server/test/support/wait.js';
import { ADMIN_PASSWORD, clusterEnv, initCluster, keepLogs, linkedDataDir, postgresAvailable, serve, type ClusterServer } from './cluster-servers.js';
import { helpFlags, unknownFlags } from './command-flags.js';
import { sectionCommands } from './readme-commands.js';

/**
 * README "More than one machine", as written: its judge commands name only flags the commands take;
 * its createuser and createdb make a database `judge init` accepts; and its nginx block, in front of
 * two servers on that database, balances requests over both with no sticky session (a cookie from
 * one works on the other) and passes the event socket. The last two need PostgreSQL (and nginx).
 */

const README = fileURLToPath(new URL('../README.md', import.meta.url));
const HEADING = '## More than one machine';
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
const commands = sectionCommands(README, HEADING);

describe('README "More than one machine"', () => {
  it('names only flags the judge commands accept', () => {
    const judge = commands.filter((c) => c.text.startsWith('bin/judge '));
    expect(judge.map((c) => c.text.split(' ')[1])).toEqual(['migrate', 'init']);
    for (const c of judge) expect(unknownFlags(c.text, helpFlags(JUDGE, [c.text.split(' ')[1]!])), `README line ${c.line}`).toEqual([]);
  });
});

describe.skipIf(!postgresAvailable())('README "More than one machine" on PostgreSQL', () => {
  const work = mkdtempSync(join(tmpdir(), 'judge-readme-cluster-'));
  let database = '';
  const servers: ClusterServer[] = [];
  let nginx: ChildProcess | undefined;
  let log = '';

  beforeAll(async () => {
    // the README's two commands, as the cluster's superuser over its socket instead of `sudo -u postgres`
    const admin = new URL(await testServer());
    const socket = admin.searchParams.get('host')!;
    const bin = readdirSync('/usr/lib/postgresql').map((v) => `/usr/lib/postgresql/${v}/bin`).find((d) => existsSync(`${d}/createdb`))!;
    const name = `judge_readme_${process.pid}`;
    for (const c of commands.filter((x) => x.text.startsWith('sudo -u postgres '))) {
      const [program, ...args] = c.text.replace('sudo -u postgres ', '').split(/\s+/);
      // no terminal to type a password at (the test cluster trusts local connections); names of this run's own
      const given = args.filter((a) => a !== '--pwprompt').map((a, i) => (a !== 'judge' ? a : program === 'createdb' && i === args.length - 1 ? name : `${name}_owner`));
      execFileSync(`${bin}/${program}`, ['-h', socket, '-U', admin.username, ...given], { stdio: 'pipe' });
    }
    const u = new URL(admin);
    u.pathname = `/${name}`;
    database = u.toString();
  }, 120_000);

  afterAll(async () => {
    nginx?.kill('SIGTERM');
    keepLogs(servers);
    await Promise.all(servers.map((s) => s.kill()));
    rmSync(work, { recursive: true, force: true });
  });

  it("makes a database judge init accepts, and the nginx block balances two servers on it without sticky sessions", async () => {
    const env = clusterEnv(database);
    const shared = join(work, 'files');
    const dirs = ['a', 'b'].map((n) => linkedDataDir(work, n, shared));
    initCluster(dirs[0]!, env);
    if (!NGINX) return;
    const port = await freePort();
    const publicUrl = `https://127.0.0.1:${port}`;
    const proxied = { ...env, JUDGE_PUBLIC_URL: publicUrl, JUDGE_TRUST_PROXY: 'true' };
    for (const [i, d] of dirs.entries()) servers.push(await serve(`s${i + 1}`, d, proxied));
    const cert = join(work, 'judge.crt');
    const key = join(work, 'judge.key');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
    const ca = readFileSync(cert);
    const block = /```nginx\n([\s\S]*?)```/.exec(readFileSync(README, 'utf8').split(HEADING)[1]!)![1]!;
    const upstream = servers.map((s) => `server ${new URL(s.url).host};`).join('\n    ');
    const site = block
      .replace(/( *server \d+\.\d+\.\d+\.\d+:\d+;\n)+/, `    ${upstream}\n`)
      .replace('listen 443 ssl;', `listen 127.0.0.1:${port} ssl;`)
      .replace(/server_name \S+;/, 'server_name 127.0.0.1;')
      .replace(/ssl_certificate +\S+;/, `ssl_certificate ${cert};`)
      .replace(/ssl_certificate_key +\S+;/, `ssl_certificate_key ${key};`);
    mkdirSync(join(work, 'logs'));
    const conf = join(work, 'nginx.conf');
    writeFileSync(conf, `pid ${work}/nginx.pid;\nerror_log ${work}/logs/error.log;\nevents {}\nhttp {\n  access_log off;\n  client_body_temp_path ${work}/body;\n  proxy_temp_path ${work}/proxy;\n  ${site}\n}\n`);
    nginx = spawn(NGINX, ['-p', work, '-c', conf, '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
    nginx.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    await until('nginx to answer', async () => {
      if (nginx!.exitCode !== null) throw new Error(`nginx exited: ${log}`);
      return (await https(`${publicUrl}/api/v1/health`, ca).catch(() => undefined))?.status === 200 ? true : undefined;
    }, 20_000, 50);

    const login = await https(`${publicUrl}/api/v1/identity/login?useCookies=true`, ca, { method: 'POST', body: { email: 'admin', password: ADMIN_PASSWORD } });
    expect(login.status, login.body).toBe(200);
    const cookie = (login.headers['set-cookie'] as string[]).find((c) => c.startsWith('judge_session='))!.split(';')[0]!;
    // requests alternate over the two servers, and the one session is good on both
    const answered = new Set<string>();
    for (let i = 0; i < 4; i++) answered.add((JSON.parse((await https(`${publicUrl}/api/v1/health`, ca, { cookie })).body) as { server: { id: string } }).server.id);
    for (let i = 0; i < 4; i++) expect((await https(`${publicUrl}/api/v1/account`, ca, { cookie })).status).toBe(200);
    expect(answered.size).toBe(2);
    // the event socket's handshake, through nginx: 101 when the upgrade reached a server and it accepted
    const opened = await new Promise<number>((resolve, reject) => {
      const req = request(`${publicUrl}/api/v1/ws`, { ca, headers: { cookie, origin: publicUrl, connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' } });
      req.on('upgrade', (res, sock) => {
        sock.destroy();
        resolve(res.statusCode ?? 0);
      });
      req.on('response', (res) => resolve(res.statusCode ?? 0));
      req.on('error', reject);
      req.end();
    });
    expect(opened, log).toBe(101);
  }, 180_000);
});

