import { BUILT_IN_ROLES, ops, type Activity } from '@judge/contract';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { printouts } from '../src/db/schema.js';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { refusedWith } from './expect.js';
import { TestJudge, type Party } from './harness.js';

/**
 * A co-teacher (the built-in manager role in one activity) works that activity's printout queue,
 * and no other activity's (decisions §5: the manager holds every key an owner of the activity
 * needs); installations seeded before get the key by migration 0011.
 */

let j: TestJudge;
let ours: Activity;
let theirs: Activity;
let teacher: Party;
let co: Party;
let alice: Party;
let bob: Party;

const printoutsTable = async () => JSON.stringify(await j.app.deps.tx.read((q) => q.select().from(printouts).orderBy(printouts.id)));

async function party(name: string, role?: string, activityId?: string): Promise<Party> {
  const u = await j.user(name);
  if (role) await j.grant(u.id, role, activityId);
  return { u, c: await j.signIn(u) };
}

beforeAll(async () => {
  j = await TestJudge.start();
  const admin = await j.admin();
  const make = (slug: string) =>
    admin.call(ops.createActivity, { body: { slug, name: slug, type: 'course@1', rankingType: 'points', timeZone: 'Europe/Berlin', modules: { printouts: true } } });
  ours = await make('ours');
  theirs = await make('theirs');
  teacher = await party('teacher', 'manager', ours.id);
  co = await party('co');
  alice = await party('alice', 'participant', ours.id);
  bob = await party('bob', 'participant', theirs.id);
});
afterAll(() => j.stop());

describe('a co-manager and the printout queue', () => {
  it('a manager makes a co-manager with the built-in role (they hold every key of it, printout:manage included)', async () => {
    const roles = await teacher.c.call(ops.listRoles, { query: { activityId: ours.id } });
    const manager = roles.find((r) => r.builtInKey === 'manager')!;
    expect(manager.permissions).toContain('printout:manage');
    const g = await teacher.c.call(ops.createGrant, { body: { userId: co.u.id, roleId: manager.id, activityId: ours.id } });
    expect(g).toMatchObject({ userId: co.u.id, roleName: 'Manager', activityId: ours.id });
    expect(await co.c.call(ops.myPermissions, { query: { activityId: ours.id } })).toContain('printout:manage');
    expect(await co.c.call(ops.myPermissions, { query: { activityId: theirs.id } })).not.toContain('printout:manage');
  });

  it("claims and resolves a printout of their activity, and lists only that activity's queue", async () => {
    const p = await alice.c.call(ops.requestPrintout, { params: { idOrSlug: ours.slug }, body: { fileName: 'a.py', source: 'print(1)\n' } });
    expect(await co.c.call(ops.listPrintoutActivities, {})).toEqual([{ id: ours.id, name: 'ours', slug: 'ours' }]);
    const queue = await co.c.call(ops.listPrintouts, { query: { activityId: ours.id } });
    expect(queue.items.map((x) => x.id)).toEqual([p.id]);
    expect((await co.c.call(ops.getPrintout, { params: { id: p.id } })).source).toBe('print(1)\n');
    expect(await co.c.call(ops.claimPrintout, { params: { id: p.id } })).toMatchObject({ state: 'claimed', claimedByName: 'co', claimedByMe: true });
    expect(await co.c.call(ops.resolvePrintout, { params: { id: p.id }, body: { note: 'on the desk' } })).toMatchObject({ state: 'resolved', resolvedByName: 'co' });
  });

  it("is refused another activity's queue and printouts, which stay as they were", async () => {
    const p = await bob.c.call(ops.requestPrintout, { params: { idOrSlug: theirs.slug }, body: { fileName: 'b.py', source: 'print(2)\n' } });
    const before = await printoutsTable();
    await refusedWith(co.c.call(ops.listPrintouts, { query: { activityId: theirs.id } }), 403, 'forbidden');
    await refusedWith(co.c.call(ops.getPrintout, { params: { id: p.id } }), 404, 'not_found');
    await refusedWith(co.c.call(ops.getPrintoutPdf, { params: { id: p.id } }), 404, 'not_found');
    await refusedWith(co.c.call(ops.claimPrintout, { params: { id: p.id } }), 404, 'not_found');
    await refusedWith(co.c.call(ops.resolvePrintout, { params: { id: p.id }, body: {} }), 404, 'not_found');
    const all = await co.c.call(ops.listPrintouts, {});
    expect(all.items.some((x) => x.id === p.id)).toBe(false);
    expect(await printoutsTable()).toBe(before);
  });

  it('a participant of the same activity is refused the queue', async () => {
    await refusedWith(alice.c.call(ops.listPrintouts, { query: { activityId: ours.id } }), 403, 'forbidden');
  });

  it('a co-manager taken out of the activity is refused its queue again', async () => {
    const [g] = (await teacher.c.call(ops.listGrants, { query: { activityId: ours.id, userId: co.u.id } })).items;
    await teacher.c.call(ops.deleteGrant, { params: { id: g!.id } });
    await refusedWith(co.c.call(ops.listPrintouts, { query: { activityId: ours.id } }), 403, 'forbidden');
  });
});

describe('migration 0011 on an installation seeded before it', () => {
  const MIGRATIONS = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'drizzle');
  const OLD_MANAGER = BUILT_IN_ROLES.manager.permissions.filter((k) => k !== 'printout:manage');
  let dir: string;

  /** A database file at migration 0010 holding a manager role with the given keys, as `judge init` seeded it then. */
  function oldInstallation(permissions: string[]): string {
    const folder = join(dir, `migrations-${Math.random().toString(36).slice(2)}`);
    cpSync(MIGRATIONS, folder, { recursive: true });
    const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: { idx: number }[] };
    journal.entries = journal.entries.filter((e) => e.idx <= 10);
    writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
    const file = join(folder, 'judge.db');
    const sqlite = new Database(file);
    migrate(drizzle(sqlite), { migrationsFolder: folder });
    sqlite
      .prepare("INSERT INTO roles (id, name, name_key, permissions, built_in_key, created_at) VALUES (?, 'Manager', 'manager', ?, 'manager', '2026-01-01T00:00:00.000Z')")
      .run('00000000-0000-4000-8000-000000000001', JSON.stringify(permissions));
    sqlite
      .prepare("INSERT INTO roles (id, name, name_key, permissions, built_in_key, created_at) VALUES (?, 'Participant', 'participant', ?, 'participant', '2026-01-01T00:00:00.000Z')")
      .run('00000000-0000-4000-8000-000000000002', JSON.stringify(BUILT_IN_ROLES.participant.permissions));
    sqlite.close();
    return file;
  }

  const keysOf = (file: string) => {
    const h = openDatabase(file);
    try {
      const rows = h.sqlite.prepare('SELECT built_in_key AS k, permissions AS p FROM roles').all() as { k: string; p: string }[];
      return Object.fromEntries(rows.map((r) => [r.k, JSON.parse(r.p) as string[]]));
    } finally {
      h.close();
    }
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'judge-migration-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('adds printout:manage to the built-in manager role and to no other', () => {
    const keys = keysOf(oldInstallation(OLD_MANAGER));
    expect(keys.manager).toEqual([...OLD_MANAGER, 'printout:manage']);
    expect(keys.participant).toEqual(BUILT_IN_ROLES.participant.permissions);
  });

  it('leaves a manager role that holds it already as it was', () => {
    const edited = ['activity:read', 'printout:manage', 'question:answer'];
    expect(keysOf(oldInstallation(edited)).manager).toEqual(edited);
  });
});
