import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MiB } from '../judging/limits.js';
import type { SubmissionFileInput } from '../judging/types.js';
import { extractZip } from '../problem/cache.js';
import { safeRelative } from '../problem/programs.js';
import { PackageError, type TestCase, type TestGroup } from '../problem/types.js';
import { listFiles } from './files.js';
import type { GradeContext, Grader, TestRun } from './grader.js';
import { validate } from './validation.js';

/**
 * Output-only judging (`output-only@1`, 2023-07 `submit-answer`): the submitted files, loose or
 * zipped, are the answers of the secret test cases, validated like a program's output.
 */
export const outputOnlyGrader: Grader = {
  mode: 'output-only',
  problemTypes: ['output-only@1'],
  handles: (problem, problemType) => problemType === 'output-only@1' || problem.submitAnswer,
  refuse(problem) {
    if (problem.interactive) throw new PackageError('an interactive problem cannot be judged as output-only');
    if (problem.multiPass) throw new PackageError('a multi-pass problem cannot be judged as output-only');
  },
  exampleFileNames: 'path',
  async prepare(ctx) {
    const answers = await answerFiles(ctx.input.files, ctx.scratch);
    if ('error' in answers) return { rejected: 'CE', message: answers.error };
    ctx.log.add(`output-only: ${ctx.limits.notes.join(', ')}`);
    return { data: secretOnly(ctx.input.problem.data), grade: (test) => gradeAnswer(ctx, test, answers) };
  },
};

/** data/ with only the secret test cases: output-only submissions answer those. */
function secretOnly(data: TestGroup): TestGroup {
  return { ...data, items: data.items.filter((i) => i.kind === 'group' && i.group.name === 'secret') };
}

interface AnswerSet {
  /** Relative file name → host path. */
  files: Map<string, string>;
}

/** The submitted answers, a zip of them unpacked. */
async function answerFiles(files: SubmissionFileInput[], scratch: string): Promise<AnswerSet | { error: string }> {
  const dir = path.join(scratch, 'answers');
  await fs.promises.mkdir(dir, { mode: 0o755 });
  const out = new Map<string, string>();
  for (const f of files) {
    if (/\.zip$/i.test(f.name)) {
      const target = path.join(scratch, `zip-${randomBytes(4).toString('hex')}`);
      try {
        await extractZip(f.bytes, target, { maxEntries: 10_000, maxExtractedBytes: 1024 * MiB });
      } catch (e) {
        return { error: `${f.name}: ${(e as Error).message}` };
      }
      for (const rel of await listFiles(target)) out.set(rel, path.join(target, rel));
      continue;
    }
    const name = f.name.replace(/^\/+/, '');
    if (!safeRelative(name)) return { error: `the file name ${JSON.stringify(f.name)} is not accepted` };
    const target = path.join(dir, name);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.writeFile(target, f.bytes);
    out.set(name, target);
  }
  return { files: out };
}

/**
 * The submitted file answering a test: `secret/group1/03` is answered by `secret/group1/03.out`,
 * `group1/03.out` or `03.out` (also `.ans`, `.txt` or no extension), the longest path first.
 */
export function answerFor(test: TestCase, files: ReadonlyMap<string, string>): string | undefined {
  const parts = test.name.split('/');
  for (let i = 0; i < parts.length; i++) {
    const base = parts.slice(i).join('/');
    for (const ext of ['.out', '.ans', '.txt', '']) {
      const hit = files.get(`${base}${ext}`);
      if (hit) return hit;
    }
  }
  return undefined;
}

async function gradeAnswer(ctx: GradeContext, test: TestCase, answers: AnswerSet): Promise<TestRun> {
  const file = answerFor(test, answers.files);
  const base = test.name.slice(test.name.lastIndexOf('/') + 1);
  if (!file) return { outcome: { verdict: 'WA' }, feedback: `no answer for ${test.name} (submit a file named ${base}.out)` };
  const size = (await fs.promises.stat(file)).size;
  if (size > ctx.limits.run.outputBytes) return { outcome: { verdict: 'OLE' }, feedback: `the answer is ${size} bytes; at most ${ctx.limits.run.outputBytes} are allowed` };
  return validate(ctx, test, file);
}
