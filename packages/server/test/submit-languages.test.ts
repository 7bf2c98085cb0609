import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type LanguageChoice } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { Bench, type Runner, type Stage } from './support/runner-bench.js';
import { codeForm, fileForm } from './support/forms.js';

/**
 * Refusing at submit what cannot be judged (422 `submission.language`), over real HTTP and SQLite:
 * the language is props.language or the one the table gives the file's extension; the assignment's
 * config.languages and the languages that approved runners matching the assignment's tags reported
 * when they authenticated narrow it. Each stage requires tags of its own, so that only the runners
 * a test registers for it match. Every refusal leaves the tables and the upload folder as they were.
 */

const TABLE = [
  'c', 'cpp', 'python3', 'java', 'javascript', 'kotlin', 'rust', 'go', 'cpp17', 'pypy3', 'typescript', 'csharp', 'haskell',
  'ocaml', 'ruby', 'php', 'pascal', 'fortran', 'scala', 'lisp', 'prolog', 'lua', 'perl', 'bash', 'r', 'ada', 'd',
];

let b: Bench;
beforeAll(async () => {
  b = await Bench.start();
});
afterAll(() => b?.stop());

const incoming = () => readdirSync(join(b.j.dataDir, 'files', '.incoming'));

/** A stage whose jobs require a tag of its own. */
async function stage(config?: Record<string, unknown>): Promise<Stage & { tag: string }> {
  const tag = b.uniq('lab');
  return { ...(await b.stage({ activityTags: [tag], ...(config ? { config } : {}) })), tag };
}

/** A runner of these tags that authenticates reporting these languages (undefined: none, as an older runner). */
async function runner(tags: string[], languages: string[] | undefined, types = ['standard-io@1']): Promise<Runner> {
  const r = await b.runner(types, { tags, approve: true });
  const { nonce } = await r.challenge();
  const res = await r.post('/runner/auth/token', { fingerprint: r.fingerprint, nonce, signature: r.sign(nonce), ...(languages ? { languages } : {}) }, null);
  expect(res.status, res.text).toBe(200);
  r.token = res.body.token;
  return r;
}

const send = (c: JudgeClient, s: Stage, form: FormData) => c.call(ops.submit, { params: { idOrSlug: s.activity.slug, problemSlug: s.slug }, form });

/** A submission refused for its language, having stored nothing: the problem's errors. */
async function refused(s: Stage, form: FormData, c: JudgeClient = b.pupil.c): Promise<{ detail: string; errors: Record<string, string[]> }> {
  const p = await b.refusedCall(() => send(c, s, form), 422, 'submission.language');
  expect(incoming()).toEqual([]);
  return { detail: p.detail, errors: p.errors! };
}

const allowedOf = async (s: Stage): Promise<LanguageChoice[]> =>
  (await b.pupil.c.call(ops.getActivityProblem, { params: { idOrSlug: s.activity.slug, problemSlug: s.slug } })).allowedLanguages;

describe('submit: the language of a submission', () => {
  it('refuses a file name that gives no language when props names none, listing every language of the table', async () => {
    const s = await stage();
    for (const form of [codeForm('print(1)\n', 'notes.txt'), codeForm('x', 'Makefile'), fileForm('print(1)\n', 'solution'), fileForm('x', 'a.py.bak')]) {
      const { detail, errors } = await refused(s, form);
      expect(errors.language).toEqual([expect.stringContaining('gives no language and props.language names none')]);
      expect(detail).toContain('Allowed here: C (gcc');
      expect(errors.allowed).toEqual(TABLE);
      expect(errors['allowed.cpp']).toEqual(['.cpp', '.cc', '.cxx', '.c++']);
      expect(errors['allowed.python3']).toEqual(['.py']);
    }
    // the same bytes with a name (or props) that gives the language are taken
    expect((await send(b.pupil.c, s, codeForm('print(1)\n', 'notes.txt', { props: JSON.stringify({ language: 'python3' }) }))).state).toBe('queued');
    expect((await send(b.pupil.c, s, fileForm('print(1)\n', 'SOL.PY'))).state).toBe('queued');
  });

  it('refuses a language the table does not have, even with a known extension', async () => {
    const s = await stage();
    const { detail, errors } = await refused(s, codeForm('x', 'a.cpp', { props: JSON.stringify({ language: 'cobol' }) }));
    expect(detail).toMatch(/^The language cobol is not in the language table\. Allowed here: /);
    expect(errors.allowed).toEqual(TABLE);
  });

  it("refuses what the assignment's config.languages does not allow; the problem lists only what it allows", async () => {
    const s = await stage({ languages: ['cpp', 'python3', 'cobol'] });
    const { detail, errors } = await refused(s, codeForm('int main(){}', 'a.c'));
    expect(errors.language).toEqual([expect.stringMatching(/^This problem does not allow C .*\(c\)$/)]);
    expect(detail).toContain('Allowed here: C++');
    // a language of the config the table lacks is not offered
    expect(errors.allowed).toEqual(['cpp', 'python3']);
    expect(Object.keys(errors).sort()).toEqual(['allowed', 'allowed.cpp', 'allowed.python3', 'language']);
    expect((await allowedOf(s)).map((l) => l.id)).toEqual(['cpp', 'python3']);
    expect(await allowedOf(s)).toContainEqual({ id: 'python3', name: expect.stringContaining('Python 3'), extensions: ['py'] });
    expect((await b.submit(s, 'print(1)\n', { fileName: 'a.py' })).state).toBe('queued');
  });

  it('with no approved runner matching the assignment yet, any language of the table waits in the queue', async () => {
    const s = await stage();
    // a runner of other tags, and one of the stage's tags still waiting for approval, do not count
    await runner([b.uniq('elsewhere')], ['c']);
    const pending = await b.runner(['standard-io@1'], { tags: [s.tag], approve: false });
    expect(pending.id).toBeTruthy();
    expect((await allowedOf(s)).map((l) => l.id)).toEqual(TABLE);
    expect((await b.submit(s, 'print(1)\n', { fileName: 'a.py' })).state).toBe('queued');
    expect((await b.submit(s, 'fn main() {}\n', { fileName: 'main.rs' })).state).toBe('queued');
  });
});

describe('submit: the languages runners reported', () => {
  it('a runner that authenticates with [c, cpp] makes python3 refused there; the problem lists c and cpp', async () => {
    const s = await stage();
    const r = await runner([s.tag], ['cpp', 'c']);
    expect((await b.view(r)).languages).toEqual(['c', 'cpp']);
    const { detail, errors } = await refused(s, codeForm('print(1)\n', 'a.py'));
    expect(errors.language).toEqual([expect.stringMatching(/^No runner that judges this problem can judge Python 3 .*\(python3\)$/)]);
    expect(detail).toContain('Allowed here: C (');
    expect(errors.allowed).toEqual(['c', 'cpp']);
    expect(await allowedOf(s)).toEqual([
      { id: 'c', name: expect.any(String), extensions: ['c'] },
      { id: 'cpp', name: expect.any(String), extensions: ['cpp', 'cc', 'cxx', 'c++'] },
    ]);
    // props.language names a language it cannot judge: refused though the extension names one it can
    await refused(s, codeForm('x', 'a.cpp', { props: JSON.stringify({ language: 'python3' }) }));
    const ok = await b.submit(s, 'int main() {}\n', { fileName: 'a.cc' });
    expect(ok.state).toBe('queued');
    const detailed = await b.admin.call(ops.getSubmission, { params: { id: ok.id } });
    expect(detailed.files).toEqual([expect.objectContaining({ fileName: 'a.cc', language: 'cpp' })]);
  });

  it('the assignment and the runners narrow the list together', async () => {
    const s = await stage({ languages: ['cpp', 'python3'] });
    await runner([s.tag], ['c', 'cpp']);
    expect((await allowedOf(s)).map((l) => l.id)).toEqual(['cpp']);
    const { errors } = await refused(s, codeForm('int main(){}', 'a.c'));
    // the assignment's refusal comes first
    expect(errors.language).toEqual([expect.stringMatching(/^This problem does not allow C /)]);
    expect(errors.allowed).toEqual(['cpp']);
  });

  it('several matching runners judge what any of them reported; a revoked runner stops counting', async () => {
    const s = await stage();
    await runner([s.tag], ['c', 'cpp']);
    const py = await runner([s.tag, 'fast'], ['python3']);
    expect((await allowedOf(s)).map((l) => l.id)).toEqual(['c', 'cpp', 'python3']);
    expect((await b.submit(s, 'print(1)\n', { fileName: 'a.py' })).state).toBe('queued');
    await b.admin.call(ops.revokeRunner, { params: { id: py.id }, body: {} });
    expect((await allowedOf(s)).map((l) => l.id)).toEqual(['c', 'cpp']);
    await refused(s, codeForm('print(2)\n', 'a.py'));
  });

  it('runner tags matter: the series tags decide which runners count', async () => {
    const tag = b.uniq('gpu');
    await runner([tag], ['c']);
    const other = await stage();
    // no runner has the other stage's tag: nothing known, nothing refused for want of a runner
    expect((await b.submit(other, 'print(1)\n', { fileName: 'a.py' })).state).toBe('queued');
    const s = await b.stage({ activityTags: [b.uniq('unused')], seriesTags: [tag] });
    await refused(s, codeForm('print(1)\n', 'a.py'));
    expect((await allowedOf(s)).map((l) => l.id)).toEqual(['c']);
  });

  it('a matching runner that reported no languages counts as able to judge any; a new report replaces the old', async () => {
    const s = await stage();
    await runner([s.tag], ['c']);
    const old = await runner([s.tag], undefined);
    expect((await b.view(old)).languages).toBeUndefined();
    expect((await allowedOf(s)).map((l) => l.id)).toEqual(TABLE);
    expect((await b.submit(s, 'print(1)\n', { fileName: 'a.py' })).state).toBe('queued');
    // the same runner, upgraded, authenticates again with its languages
    const { nonce } = await old.challenge();
    const res = await old.post('/runner/auth/token', { fingerprint: old.fingerprint, nonce, signature: old.sign(nonce), languages: ['go', 'c', 'go'] }, null);
    expect(res.status, res.text).toBe(200);
    expect((await b.view(old)).languages).toEqual(['c', 'go']);
    expect((await allowedOf(s)).map((l) => l.id)).toEqual(['c', 'go']);
    await refused(s, codeForm('print(1)\n', 'a.py'));
  });

  it('refuses a malformed language list at authentication', async () => {
    const r = await b.runner(['standard-io@1']);
    const { nonce } = await r.challenge();
    const res = await r.post('/runner/auth/token', { fingerprint: r.fingerprint, nonce, signature: r.sign(nonce), languages: 'cpp' }, null);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 422, code: 'validation_failed' });
  });

  it("refuses a manager's test submission alike: a test nobody can judge tests nothing", async () => {
    const s = await stage();
    await runner([s.tag], ['cpp']);
    const { errors } = await refused(s, codeForm('print(1)\n', 'a.py'), b.admin);
    expect(errors.allowed).toEqual(['cpp']);
    expect((await send(b.admin, s, codeForm('int main() {}\n', 'a.cpp'))).state).toBe('queued');
  });

  it('checks the language before the checksum: a refused upload with a wrong sha256 still answers the language', async () => {
    const s = await stage();
    await runner([s.tag], ['cpp']);
    const form = fileForm('print(1)\n', 'a.py');
    form.set('sha256', '0'.repeat(64));
    await refused(s, form);
  });
});
