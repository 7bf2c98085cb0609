import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Health } from '@judge/contract';
import { TestJudge } from './harness.js';
import { testAppsOnPostgres } from './pg-cluster.js';
import { until } from './support/wait.js';

/**
 * /health tells which server answered and the cluster of servers on its database (docs/storage.md,
 * "Several servers"): anyone sees ids, leader, lags and heartbeat ages; only administrators see
 * host names, process ids and start times. Runs on the engine the harness is set to
 * (JUDGE_TEST_DATABASE); the two-server part only on PostgreSQL.
 */

const onPostgres = testAppsOnPostgres();
const ADMIN_ONLY = ['host', 'pid', 'startedAt'] as const;

describe('health: this server and the cluster view', () => {
  let j: TestJudge;
  beforeAll(async () => (j = await TestJudge.start()));
  afterAll(() => j?.stop());

  it('tells anyone which server answered, that it leads, and the one server alive, without host, pid or start', async () => {
    const h = await j.anonymous().call(ops.health);
    expect(h.server.id).toBe(j.app.deps.serverId);
    expect(h.server.leader).toBe(true);
    expect(h.cluster.engine).toBe(onPostgres ? 'postgres' : 'sqlite');
    expect(h.cluster.leader).toBe(h.server.id);
    expect(h.cluster.servers.map((s) => s.id)).toEqual([h.server.id]);
    const [self] = h.cluster.servers;
    expect(self).toMatchObject({ leader: true, version: h.version });
    expect(self!.heartbeatAgeMs).toBeGreaterThanOrEqual(0);
    for (const key of ADMIN_ONLY) expect(self).not.toHaveProperty(key);
    if (onPostgres) {
      expect(h.server.lag).toBeGreaterThanOrEqual(0);
      expect(h.cluster.newestEventId).toBeGreaterThanOrEqual(0);
    } else {
      // no event log on SQLite: no lag and no event id to count it from
      expect(h.server).not.toHaveProperty('lag');
      expect(self).not.toHaveProperty('lag');
      expect(h.cluster).not.toHaveProperty('newestEventId');
    }
  });

  it('shows host, pid and start to an administrator only, not to a signed-in participant', async () => {
    const pupil = await j.signIn(await j.user('pupil'));
    const seen = await pupil.call(ops.health);
    for (const key of ADMIN_ONLY) expect(seen.cluster.servers[0]).not.toHaveProperty(key);
    const admin = await (await j.admin()).call(ops.health);
    expect(admin.cluster.servers[0]).toMatchObject({ id: admin.server.id, host: hostname(), pid: process.pid });
    expect(admin.cluster.servers[0]!.startedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it.runIf(onPostgres)('counts the lag against the event log, and it comes back to 0 once the hub has read a write', async () => {
    const before = (await j.anonymous().call(ops.health)).cluster.newestEventId!;
    await (await j.admin()).call(ops.updateInstance, { body: { name: 'Lag check' } });
    const h = await until('the hub to read the write', async () => {
      const r = await j.anonymous().call(ops.health);
      return r.server.lag === 0 && r.cluster.newestEventId! > before ? r : undefined;
    }, 15_000, 50);
    expect(h.cluster.servers[0]!.id).toBe(h.server.id);
  });
});

describe.runIf(onPostgres)('health: two servers on one database', () => {
  let first: TestJudge;
  let second: TestJudge | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'judge-health-second-'));
  beforeAll(async () => {
    first = await TestJudge.start();
    // the second server's data directory names the first one's database, as `judge serve --database` would
    const { database } = JSON.parse(readFileSync(join(first.dataDir, 'judge.json'), 'utf8')) as { database: string };
    writeFileSync(join(dir, 'judge.json'), JSON.stringify({ database }));
    second = await TestJudge.start({ dataDir: dir });
  });
  afterAll(async () => {
    // the second keeps its directory and the database; the first then drops both
    await second?.stop();
    await first?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('both list both servers, the first leads and the second says it does not; when the leader stops, the second leads', async () => {
    const both = (h: Health) => h.cluster.servers.map((s) => s.id).sort().join() === [first.app.deps.serverId, second!.app.deps.serverId].sort().join();
    const seen = await until('both servers in both views', async () => {
      const [a, b] = [await first.anonymous().call(ops.health), await second!.anonymous().call(ops.health)];
      return both(a) && both(b) ? ([a, b] as const) : undefined;
    }, 15_000, 100);
    const [a, b] = seen;
    expect(a.server).toMatchObject({ id: first.app.deps.serverId, leader: true });
    expect(b.server).toMatchObject({ id: second!.app.deps.serverId, leader: false });
    expect(b.cluster.leader).toBe(first.app.deps.serverId);
    expect(b.cluster.servers.find((s) => s.id === second!.app.deps.serverId)).toMatchObject({ leader: false });

    // the app alone: first.stop() would also drop the database the second server still uses
    await first.app.close();
    const after = await until('the second server to lead', async () => {
      const h = await second!.anonymous().call(ops.health);
      return h.server.leader && h.cluster.leader === h.server.id ? h : undefined;
    }, 15_000, 100);
    // a server that closes removes its row: it is gone from the view at once, not after 15 s
    expect(after.cluster.servers.map((s) => s.id)).toEqual([second!.app.deps.serverId]);
  });
});
