import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, SubmitFormParts } from '@judge/contract';
import { Bench, type Stage } from './support/runner-bench.js';
import { sha256 } from './support/forms.js';
import { until } from './support/wait.js';

/**
 * Submissions of several files (decisions §9, §13), over real HTTP and SQLite: repeated `file`
 * parts up to the assignment's (else the activity's) maxAttachments, one sha256 per part in their
 * order, comma-separated; every file is stored and listed, and every refusal stores nothing.
 */

let b: Bench;
beforeAll(async () => {
  b = await Bench.start();
});
afterAll(() => b?.stop());

const incoming = () => readdirSync(join(b.j.dataDir, 'files', '.incoming'));

/** A stage whose assignment takes at most `max` files. */
async function stage(max: number): Promise<Stage> {
  const s = await b.stage();
  const p = await b.pupil.c.call(ops.getActivityProblem, { params: { idOrSlug: s.activity.slug, problemSlug: s.slug } });
  const { problemId } = (await b.j.query('SELECT problem_id AS "problemId" FROM series_problems WHERE id = ?', p.id))[0] as { problemId: string };
  await b.admin.call(ops.updateAssignment, { params: { assignmentId: p.id }, body: { problemId, slug: s.slug, maxAttachments: max } });
  return s;
}

type Part = [name: string, content: string];

/** A form of file parts with their digests, comma-separated (or as given). */
function filesForm(parts: Part[], extra: Record<string, string> = {}): FormData {
  const f = new FormData();
  for (const [name, content] of parts) f.append('file', new Blob([content]), name);
  f.set('sha256', parts.map(([, c]) => sha256(c)).join(','));
  for (const [k, v] of Object.entries(extra)) f.set(k, v);
  return f;
}

const send = (s: Stage, form: FormData) => b.pupil.c.call(ops.submit, { params: { idOrSlug: s.activity.slug, problemSlug: s.slug }, form });

const CPP: Part[] = [
  ['main.cpp', '#include "add.hpp"\n#include <iostream>\nint main() { long a, b; std::cin >> a >> b; std::cout << add(a, b) << "\\n"; }\n'],
  ['add.cpp', '#include "add.hpp"\nlong add(long a, long b) { return a + b; }\n'],
  ['add.hpp', 'long add(long a, long b);\n'],
];

describe('submit: several files', () => {
  it('stores three files in their order; the participant and the manager see them all', async () => {
    const s = await stage(3);
    const created = await send(s, filesForm(CPP));
    expect(created.state).toBe('queued');
    const expected = CPP.map(([fileName, content]) => expect.objectContaining({ fileName, language: 'cpp', sha256: sha256(content), sizeBytes: Buffer.byteLength(content) }));
    const own = await b.pupil.c.call(ops.getOwnSubmission, { params: { idOrSlug: s.activity.slug, id: created.id } });
    expect(own.files).toEqual(expected);
    expect(own.files.map((f) => f.name)).toEqual(['source', 'source-002', 'source-003']);
    const managed = await b.admin.call(ops.getSubmission, { params: { id: created.id } });
    expect(managed.files).toEqual(expected);
    expect(incoming()).toEqual([]);
  });

  it('keeps the one-file form as it was: one part, one digest', async () => {
    const s = await stage(3);
    const created = await send(s, filesForm([['sol.py', 'print(1)\n']]));
    const managed = await b.admin.call(ops.getSubmission, { params: { id: created.id } });
    expect(managed.files).toEqual([expect.objectContaining({ name: 'source', fileName: 'sol.py', language: 'python3' })]);
  });

  it('takes the limit from the activity when the assignment sets none (1 by default)', async () => {
    const s = await b.stage();
    const p = await b.refusedCall(() => send(s, filesForm(CPP.slice(0, 2))), 422, 'file.tooMany');
    expect(p.detail).toContain('one file per submission');
  });
});

describe('submit: refusals of several files store nothing', () => {
  it('more files than maxAttachments: 422 file.tooMany naming the limit', async () => {
    const s = await stage(2);
    const p = await b.refusedCall(() => send(s, filesForm(CPP)), 422, 'file.tooMany');
    expect(p.detail).toMatch(/at most 2 files per submission .*has 3/);
    // far more than that stop the parser: still the same refusal
    const many = filesForm(Array.from({ length: 6 }, (_, i): Part => [`u${i}.cpp`, `int f${i}();\n`]));
    const q = await b.refusedCall(() => send(s, many), 422, 'file.tooMany');
    expect(q.detail).toMatch(/at most 2 files per submission .*has more than 3/);
    // the parser may begin parts past the refusal: they go as soon as they are opened
    await until('the refused parts removed', () => (incoming().length === 0 ? true : undefined), 5000, 20);
  });

  it('two parts with one file name: 422 naming the name', async () => {
    const s = await stage(3);
    const p = await b.refusedCall(() => send(s, filesForm([CPP[0]!, ['main.cpp', 'int x;\n']])), 422, 'validation_failed');
    expect(p.errors?.file).toEqual([expect.stringContaining('main.cpp')]);
    expect(incoming()).toEqual([]);
  });

  it('one digest for several files, or a digest that does not match any one file: 422', async () => {
    const s = await stage(3);
    const one = filesForm(CPP);
    one.set('sha256', sha256(CPP[0]![1]));
    const p = await b.refusedCall(() => send(s, one), 422, 'validation_failed');
    expect(p.errors?.sha256).toEqual([expect.stringContaining('3 digests')]);
    const swapped = filesForm(CPP);
    swapped.set('sha256', [CPP[1], CPP[0], CPP[2]].map((x) => sha256(x![1])).join(','));
    await b.refusedCall(() => send(s, swapped), 422, 'checksum_mismatch');
    expect(incoming()).toEqual([]);
  });

  it('files of two languages, or a file that names none: 422 submission.language', async () => {
    const s = await stage(3);
    const mixed = await b.refusedCall(() => send(s, filesForm([['main.cpp', 'int main(){}\n'], ['helper.py', 'x = 1\n']])), 422, 'submission.language');
    expect(mixed.errors?.language).toEqual([expect.stringContaining('several languages (cpp, python3)')]);
    const unnamed = await b.refusedCall(() => send(s, filesForm([['main.cpp', 'int main(){}\n'], ['notes.txt', 'x\n']])), 422, 'submission.language');
    expect(unnamed.errors?.language).toEqual([expect.stringContaining('notes.txt gives no language')]);
    // headers go with any language; props.language names it for every file
    expect((await send(s, filesForm([['main.c', 'int main(){}\n'], ['util.h', '#define X 1\n']]))).state).toBe('queued');
    expect((await send(s, filesForm([['a.txt', 'print(1)\n'], ['b.txt', 'x = 1\n']], { props: JSON.stringify({ language: 'python3' }) }))).state).toBe('queued');
    expect(incoming()).toEqual([]);
  });

  it('a part not named file: 422 file.tooMany', async () => {
    const s = await stage(3);
    const f = filesForm(CPP.slice(0, 1));
    f.append('other', new Blob(['y']), 'b.cpp');
    await b.refusedCall(() => send(s, f), 422, 'file.tooMany');
  });
});

describe('the submission form with several file parts', () => {
  const A = 'a'.repeat(64);
  const B = 'b'.repeat(64);
  const part = (fileName: string) => ({ field: 'file', fileName, tempPath: `/tmp/${fileName}`, mimeType: 'text/plain' });
  const issues = (form: unknown) => {
    const r = SubmitFormParts.safeParse(form);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('pairs each part with its digest, in order, spaces around the commas allowed', () => {
    const form = SubmitFormParts.parse({ files: [part('a.py'), part('')], sha256: `${A} , ${B}` });
    expect(form.uploads).toEqual([
      { tempPath: '/tmp/a.py', name: 'a.py', declaredSha256: A },
      { tempPath: '/tmp/', name: 'source', declaredSha256: B },
    ]);
    expect(form).toMatchObject({ fileName: 'a.py', sha256: A });
  });

  it('refuses a digest count that differs from the part count, and two parts of one name', () => {
    expect(issues({ files: [part('a.py'), part('b.py')], sha256: A })).toEqual([expect.stringMatching(/^sha256: must be 2 digests/)]);
    expect(issues({ files: [part('a.py')], sha256: `${A},${B}` })).toEqual(['sha256: must be 64 hex digits']);
    expect(issues({ files: [part('a.py'), part('a.py')], sha256: `${A},${B}` })).toEqual([expect.stringMatching(/^file: two file parts are named a\.py/)]);
  });
});
