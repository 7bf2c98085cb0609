import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { TestJudge } from './harness.js';
import { open } from './support/socket.js';

/**
 * The instance's documents (terms, privacy, ...): a revision per language comes into force at its
 * validFrom and stays until a newer one of its kind and language does, or until withdrawn; the
 * history keeps every revision, and the judge's templates follow it. The files are everybody's.
 */

let j: TestJudge;
let admin: JudgeClient;
let pupil: JudgeClient;

const md = (text: string, name = 'terms.md') => admin.upload(name, `# ${text}\n`, 'text/markdown');
const anonymousGet = (path: string) => fetch(`${j.url}/api/v1${path}`);

beforeAll(async () => {
  j = await TestJudge.start();
  admin = await j.admin();
  pupil = await j.signIn(await j.user('pupil-d'), 'cookie');
});
afterAll(() => j?.stop());

describe('publishing', () => {
  it('puts a revision per language in force, tells every page, and serves the files to everybody', async () => {
    const stream = await open(pupil);
    const [en, de] = [await md('Terms'), await md('Bedingungen', 'terms.de.md')];
    const s = await admin.call(ops.publishInstanceDocuments, { params: { kind: 'terms' }, body: { statements: [{ fileId: en.id }, { fileId: de.id, language: 'de', title: 'Nutzungsbedingungen' }] } });
    expect(s.documents.filter((d) => d.kind === 'terms')).toEqual([
      expect.objectContaining({ kind: 'terms', language: 'de', title: 'Nutzungsbedingungen', fileId: de.id, sha256: de.sha256, isTemplate: false }),
      expect.objectContaining({ kind: 'terms', language: 'en', title: 'Terms of use', fileId: en.id, sizeBytes: en.sizeBytes, isTemplate: false }),
    ]);
    expect((await stream.next('instanceChanged')).data).toMatchObject({ instance: { documents: expect.arrayContaining([expect.objectContaining({ fileId: en.id })]) } });
    stream.close();
    expect((await j.anonymous().call(ops.getInstance)).documents.map((d) => d.fileId)).toContain(en.id);
    const served = await anonymousGet(`/instance/files/${en.id}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await served.text()).toBe('# Terms\n');
    // a signed-in user reads it through /files too
    expect(new TextDecoder().decode(await pupil.call(ops.downloadFile, { params: { id: de.id } }))).toBe('# Bedingungen\n');
  });

  it('a newer revision supersedes from its validFrom on; one in the future waits', async () => {
    const first = await md('Privacy 1', 'privacy.md');
    const later = await md('Privacy 2', 'privacy.md');
    await admin.call(ops.publishInstanceDocuments, { params: { kind: 'privacy' }, body: { statements: [{ fileId: first.id }] } });
    const s = await admin.call(ops.publishInstanceDocuments, { params: { kind: 'privacy' }, body: { statements: [{ fileId: later.id }], validFrom: '2999-01-01T00:00:00+01:00' } });
    expect(s.documents.filter((d) => d.kind === 'privacy').map((d) => d.fileId)).toEqual([first.id]);
    const history = await admin.call(ops.listInstanceDocuments, { params: { kind: 'privacy' } });
    const revisions = history.filter((d) => !d.isTemplate);
    expect(revisions.map((d) => [d.fileId, d.validFrom])).toEqual([
      [later.id, '2998-12-31T23:00:00.000Z'],
      [first.id, expect.any(String)],
    ]);
    const now = await md('Privacy 3', 'privacy.md');
    const after = await admin.call(ops.publishInstanceDocuments, { params: { kind: 'privacy' }, body: { statements: [{ fileId: now.id }] } });
    expect(after.documents.filter((d) => d.kind === 'privacy').map((d) => d.fileId)).toEqual([now.id]);
  });

  it('withdraws a kind: out of force, kept in the history', async () => {
    const f = await md('Rules', 'rules.md');
    await admin.call(ops.publishInstanceDocuments, { params: { kind: 'rules' }, body: { statements: [{ fileId: f.id }] } });
    const s = await admin.call(ops.withdrawInstanceDocuments, { params: { kind: 'rules' } });
    expect(s.documents.map((d) => d.kind)).not.toContain('rules');
    expect((await admin.call(ops.listInstanceDocuments, { params: { kind: 'rules' } })).map((d) => d.fileId)).toEqual([f.id]);
  });

  it('lists the judge\'s templates after the revisions; one can be published as it is', async () => {
    const history = await admin.call(ops.listInstanceDocuments, { params: { kind: 'terms' } });
    const templates = history.filter((d) => d.isTemplate);
    expect(templates.map((t) => t.language).sort()).toEqual(['de', 'en']);
    expect(history.findIndex((d) => d.isTemplate)).toBe(history.length - 2);
    const text = new TextDecoder().decode(await admin.call(ops.downloadFile, { params: { id: templates.find((t) => t.language === 'en')!.fileId } }));
    expect(text).toMatch(/^# Terms of use/);
    expect((await admin.call(ops.listInstanceDocuments, { params: { kind: 'terms' } })).filter((d) => d.isTemplate).map((t) => t.fileId)).toEqual(templates.map((t) => t.fileId));
    expect((await admin.call(ops.listInstanceDocuments, { params: { kind: 'welcome' } })).filter((d) => d.isTemplate)).toEqual([]);
  });
});

describe('refusals change nothing', () => {
  it('two statements in one language, a file that is no document, an unknown kind, and somebody else\'s file', async () => {
    const before = await admin.call(ops.getInstance);
    const a = await md('A', 'a.md');
    const b = await md('B', 'b.md');
    await expect(admin.call(ops.publishInstanceDocuments, { params: { kind: 'cookies' }, body: { statements: [{ fileId: a.id }, { fileId: b.id, language: 'en' }] } })).rejects.toMatchObject({
      status: 422,
      code: 'validation_failed',
      errors: { 'statements.1.language': expect.any(Array) },
    });
    const image = await admin.upload('terms.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), 'image/png');
    await expect(admin.call(ops.publishInstanceDocuments, { params: { kind: 'cookies' }, body: { statements: [{ fileId: image.id }] } })).rejects.toMatchObject({ status: 422, code: 'validation_failed' });
    await expect(admin.call(ops.publishInstanceDocuments, { params: { kind: 'nonsense' as never }, body: { statements: [{ fileId: a.id }] } })).rejects.toMatchObject({ status: 404 });
    const pupils = await pupil.upload('mine.md', '# mine', 'text/markdown');
    const keeper = await j.user('doc-keeper');
    const role = await admin.call(ops.createRole, { body: { name: 'Documents keeper', permissions: ['instance:update'] } });
    await admin.call(ops.createGrant, { body: { userId: keeper.id, roleId: role.id } });
    await expect((await j.signIn(keeper)).call(ops.publishInstanceDocuments, { params: { kind: 'cookies' }, body: { statements: [{ fileId: pupils.id }] } })).rejects.toMatchObject({
      status: 422,
      code: 'file.missing',
    });
    expect(await admin.call(ops.getInstance)).toEqual(before);
    expect(await admin.call(ops.listInstanceDocuments, { params: { kind: 'cookies' } })).toEqual([]);
  });

  it('nobody without instance:update publishes, withdraws or reads the history', async () => {
    const f = await pupil.upload('p.md', '# p', 'text/markdown');
    await expect(pupil.call(ops.publishInstanceDocuments, { params: { kind: 'home' }, body: { statements: [{ fileId: f.id }] } })).rejects.toMatchObject({ status: 403 });
    await expect(pupil.call(ops.withdrawInstanceDocuments, { params: { kind: 'terms' } })).rejects.toMatchObject({ status: 403 });
    await expect(pupil.call(ops.listInstanceDocuments, { params: { kind: 'terms' } })).rejects.toMatchObject({ status: 403 });
    expect((await admin.call(ops.getInstance)).documents.map((d) => d.kind)).toContain('terms');
  });
});

describe('registration', () => {
  it('asks whoever registers to accept the terms in force, and keeps when they did', async () => {
    await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: true } });
    const body = { email: 'newcomer@school.example', password: 'a long enough password' };
    // terms are in force (published above): refused without acceptance, nothing stored
    const before = await j.count('users');
    await expect(j.anonymous().call(ops.register, { body })).rejects.toMatchObject({ status: 422, code: 'validation_failed', errors: { acceptedTerms: expect.any(Array) } });
    expect(await j.count('users')).toBe(before);
    await j.anonymous().call(ops.register, { body: { ...body, acceptedTerms: true } });
    const [row] = await j.query<{ terms_accepted_at: string | null }>('select terms_accepted_at from users where email = ?', body.email);
    expect(row?.terms_accepted_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    // without terms in force nobody is asked
    await admin.call(ops.withdrawInstanceDocuments, { params: { kind: 'terms' } });
    await j.anonymous().call(ops.register, { body: { email: 'second@school.example', password: 'a long enough password' } });
    const [second] = await j.query<{ terms_accepted_at: string | null }>('select terms_accepted_at from users where email = ?', 'second@school.example');
    expect(second?.terms_accepted_at).toBeNull();
  });
});
