import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ops, type Activity } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import yauzl from 'yauzl';
import { files, printouts, questions, submissionFiles, users } from '../src/db/schema.js';
import { ManualClock, raw } from './harness.js';
import { T0, at, type Party } from './series-fixtures.js';
import { tableSnapshot } from './support/db-snapshot.js';
import { expectProblem, login, req } from './support/identity.js';
import { Fixture, rowOf, type Task } from './support/ranking.js';

/**
 * The owner's own data (the Account section): the export opened as the zip it is, and deleting an
 * account, which anonymises it (the ranking keeps a placeholder, the sources go) when the instance
 * allows it, with the password, and never for the last administrator.
 */

const clock = new ManualClock(new Date(T0));
let f: Fixture;
let admin: JudgeClient;

beforeAll(async () => {
  f = await Fixture.start(clock);
  admin = await f.j.admin();
});
afterAll(() => f?.j.stop());

const SOURCE = '#include <cstdio>\nint main() { puts("42"); }\n';

/** A participant with two submissions (one accepted, with a source file), a question and a printout. */
async function pupil(source = `${SOURCE}// ${crypto.randomUUID()}\n`): Promise<{ a: Activity; t: Task; p: Party; rival: Party; submissionId: string; fileId: string; sha256: string; source: string }> {
  const p = await f.person('pupil', { firstName: 'Ida', lastName: 'Berg' });
  const rival = await f.person('rival');
  const a = await f.activity([p, rival], { name: f.w.uniq('Cup') });
  const t = await f.task(await f.series(a, { startDate: at(0) }));
  await f.submit(a, t, p, { minutes: 3, verdict: 'WA' });
  const submissionId = await f.submit(a, t, p, { minutes: 9, verdict: 'AC' });
  await f.submit(a, t, rival, { minutes: 20, verdict: 'AC' });
  const file = await p.c.upload('main.cpp', source, 'text/x-c++src');
  await f.j.app.deps.tx.write((q) => q.insert(submissionFiles).values({ submissionId, name: 'main.cpp', fileName: 'main.cpp', language: 'cpp', fileId: file.id }));
  await p.c.call(ops.askQuestion, { params: { idOrSlug: a.slug }, body: { topic: 'Limits', body: 'Is n up to 10^9?' } });
  await f.j.app.deps.tx.write((q) =>
    q.insert(printouts).values({ id: crypto.randomUUID(), activityId: a.id, userId: p.u.id, title: 'my code', fileName: 'main.cpp', source, sizeBytes: source.length, sha256: createHash('sha256').update(source).digest('hex'), state: 'queued', requestedAt: at(10) }),
  );
  return { a, t, p, rival, submissionId, fileId: file.id, sha256: file.sha256, source };
}

/** The entries of a zip, by name. */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out = new Map<string, Buffer>();
      zip.on('entry', (e: yauzl.Entry) => {
        zip.openReadStream(e, (e2, s) => {
          if (e2 || !s) return reject(e2);
          const parts: Buffer[] = [];
          s.on('data', (c: Buffer) => parts.push(c));
          s.on('end', () => {
            out.set(e.fileName, Buffer.concat(parts));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.readEntry();
    });
  });
}

const exportOf = async (token: string) => {
  const r = await fetch(`${f.j.url}/api/v1/account/export`, { headers: { authorization: `Bearer ${token}` } });
  return { r, bytes: Buffer.from(await r.arrayBuffer()) };
};

describe('GET /account/links', () => {
  it('lists no identity provider for a password account, and asks a signed-in caller', async () => {
    const { p } = await pupil();
    expect(await p.c.call(ops.listAccountLinks)).toEqual([]);
    expect((await req(f.j, 'GET', '/account/links')).status).toBe(401);
  });
});

describe('GET /account/export', () => {
  it('is a zip of the profile, sessions, grants, submissions with their sources and verdicts, questions and printouts, without secrets', async () => {
    const { a, p, submissionId, source } = await pupil();
    const { r, bytes } = await exportOf(p.c.accessToken!);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/zip');
    expect(r.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="judge-account-${p.u.username}-\\d{4}-\\d{2}-\\d{2}\\.zip"$`));
    const zip = await unzip(bytes);
    const json = (name: string) => JSON.parse(zip.get(name)!.toString('utf8'));
    expect([...zip.keys()].filter((k) => !k.startsWith('submissions/')).sort()).toEqual(
      ['README.txt', 'account.json', 'grants.json', 'merges.json', 'printouts.json', 'questions.json', 'sessions.json', 'submissions.json'].sort(),
    );
    expect(json('account.json')).toMatchObject({ userId: p.u.id, username: p.u.username, firstName: 'Ida', lastName: 'Berg', twoFactorEnabled: false });
    expect(json('sessions.json').length).toBeGreaterThanOrEqual(1);
    expect(json('grants.json')).toEqual([expect.objectContaining({ role: 'Participant', activity: a.slug, activityName: a.name })]);
    const subs = json('submissions.json');
    expect(subs.map((s: { verdict: string }) => s.verdict)).toEqual(['WA', 'AC']);
    const accepted = subs.find((s: { id: string }) => s.id === submissionId);
    expect(accepted).toMatchObject({ activity: a.slug, problemName: expect.any(String), state: 'completed' });
    expect(accepted.files).toHaveLength(1);
    expect(zip.get(accepted.files[0].path)!.toString('utf8')).toBe(source);
    expect(json('questions.json')).toEqual([expect.objectContaining({ activity: a.slug, topic: 'Limits', body: 'Is n up to 10^9?' })]);
    expect(json('printouts.json')).toEqual([expect.objectContaining({ title: 'my code', source })]);
    expect(zip.get('README.txt')!.toString()).toContain('submissions.json');

    const all = bytes.toString('latin1');
    const [row] = await f.j.app.deps.tx.read((q) => q.select().from(users).where(eq(users.id, p.u.id)));
    expect(all).not.toContain(row!.passwordHash!);
    expect(all).not.toContain(p.c.accessToken!);
  });

  it("holds only the caller's own data", async () => {
    const { p, rival } = await pupil();
    const zip = await unzip((await exportOf(rival.c.accessToken!)).bytes);
    const text = [...zip.values()].map((b) => b.toString('utf8')).join('\n');
    expect(text).not.toContain(p.u.id);
    expect(text).not.toContain('Is n up to 10^9?');
    expect((await raw(`${f.j.url}/api/v1/account/export`)).status).toBe(401);
  });
});

describe('POST /account/delete', () => {
  it('is refused while the instance does not allow it, with nothing changed', async () => {
    const { p } = await pupil();
    const before = await tableSnapshot(f.j, [users, questions, submissionFiles, files]);
    expectProblem(await req(f.j, 'POST', '/account/delete', { token: p.c.accessToken!, body: { password: p.u.password } }), 403, 'account.deletion.disabled');
    expect(await tableSnapshot(f.j, [users, questions, submissionFiles, files])).toEqual(before);
  });

  describe('when the instance allows it', () => {
    beforeAll(async () => {
      await admin.call(ops.updateInstance, { body: { accountDeletionEnabled: true } });
    });

    it('needs the right password, and bad input changes nothing', async () => {
      const { p } = await pupil();
      const before = await tableSnapshot(f.j, [users, questions, submissionFiles, files]);
      expectProblem(await req(f.j, 'POST', '/account/delete', { token: p.c.accessToken!, body: { password: 'not my password' } }), 422, 'account.password.wrong');
      expectProblem(await req(f.j, 'POST', '/account/delete', { token: p.c.accessToken!, body: {} }), 422, 'validation_failed');
      expect((await req(f.j, 'POST', '/account/delete', { body: { password: 'x' } })).status).toBe(401);
      expect(await tableSnapshot(f.j, [users, questions, submissionFiles, files])).toEqual(before);
    });

    it('anonymises the account: signed out, the ranking keeps a placeholder, sources, printouts and questions gone', async () => {
      const { a, p, rival, fileId, sha256 } = await pupil();
      const blob = f.j.app.services.files.blobs.pathOf(sha256);
      expect(existsSync(blob)).toBe(true);
      const r = await req(f.j, 'POST', '/account/delete', { token: p.c.accessToken!, body: { password: p.u.password } });
      expect(r.status, r.text).toBe(204);

      expect((await req(f.j, 'GET', '/account', { token: p.c.accessToken! })).status).toBe(401);
      expect((await login(f.j, p.u.username, p.u.password)).status).toBe(401);
      const [row] = await f.j.app.deps.tx.read((q) => q.select().from(users).where(eq(users.id, p.u.id)));
      expect(row).toMatchObject({ username: expect.stringMatching(/^deleted-[0-9a-f]{12}$/), firstName: null, lastName: null, email: null, passwordHash: null, blockedReason: 'Deleted by its owner' });

      const ranking = await f.ranking(rival, a);
      expect(rowOf(ranking, p)).toMatchObject({ userName: row!.username, solved: 1 });
      expect(ranking.rows.map((x) => x.userName)).not.toContain('Ida Berg');

      expect(await f.j.app.deps.tx.read((q) => q.select().from(files).where(eq(files.id, fileId)))).toEqual([]);
      expect(existsSync(blob)).toBe(false);
      const asked = await f.j.app.deps.tx.read((q) => q.select().from(questions).where(eq(questions.authorUserId, p.u.id)));
      expect(asked.map((x) => [x.topic, x.body])).toEqual([['[deleted]', '[deleted]']]);
      const printed = await f.j.app.deps.tx.read((q) => q.select().from(printouts).where(eq(printouts.userId, p.u.id)));
      expect(printed.map((x) => x.source)).toEqual([null]);
      // staff see what happened
      expect((await admin.call(ops.getManagedUser, { params: { id: p.u.id } })).blockedReason).toBe('Deleted by its owner');
    });

    it('keeps a source another account submitted with the same bytes', async () => {
      const first = await pupil(SOURCE);
      const second = await pupil(SOURCE);
      expect(second.sha256).toBe(first.sha256);
      await req(f.j, 'POST', '/account/delete', { token: first.p.c.accessToken!, body: { password: first.p.u.password } });
      expect(existsSync(f.j.app.services.files.blobs.pathOf(second.sha256))).toBe(true);
      const zip = await unzip((await exportOf(second.p.c.accessToken!)).bytes);
      expect([...zip.entries()].find(([k]) => k.endsWith('/main.cpp'))![1].toString()).toBe(SOURCE);
    });

    it('refuses the last administrator', async () => {
      const before = await tableSnapshot(f.j, [users]);
      expectProblem(await req(f.j, 'POST', '/account/delete', { token: admin.accessToken!, body: { password: (await import('./harness.js')).ADMIN_PASSWORD } }), 409, 'account.lastAdministrator');
      expect(await tableSnapshot(f.j, [users])).toEqual(before);
    });
  });
});
