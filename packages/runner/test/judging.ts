import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { Sandbox, judgeSubmission, loadLanguages, loadProblem, type JudgeInput, type JudgeResult, type LanguageTable, type ProblemSpec } from '@judge/runner';

/**
 * What the grader tests share: a real sandbox (bubblewrap, cgroups where the machine has them),
 * the real language table, packages written to disk and loaded, submissions judged end to end.
 */

export const hasBwrap = Sandbox.findBwrap() !== null;

export type Submit = Omit<JudgeInput, 'sandbox' | 'languages' | 'problem' | 'files'> & { files: Record<string, string> };

export interface JudgeFixture {
  readonly sandbox: Sandbox;
  readonly languages: LanguageTable;
  /** Writes a package (file name → text) to a fresh directory and loads it. */
  problemOf(files: Record<string, string>): Promise<ProblemSpec>;
  /** Judges text files (name → text) against a loaded package. */
  judge(problem: ProblemSpec, s: Submit): Promise<JudgeResult>;
}

/** Registers the sandbox's set-up and tear-down with the calling test file. */
export function judgeFixture(): JudgeFixture {
  let root = '';
  let sandbox: Sandbox | undefined;
  let languages: LanguageTable | undefined;
  let n = 0;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'judge-test-'));
    if (!hasBwrap) return;
    // cgroups when there are any; the rlimit fallback otherwise (these tests need no exact memory numbers)
    sandbox = await Sandbox.create({ workRoot: join(root, 'sandbox'), insecureNoCgroup: true });
    languages = loadLanguages();
  });
  afterAll(async () => {
    await sandbox?.close();
    await rm(root, { recursive: true, force: true });
  });
  const fixture: JudgeFixture = {
    get sandbox() {
      return sandbox!;
    },
    get languages() {
      return languages!;
    },
    async problemOf(files) {
      const dir = join(root, `p${++n}`);
      for (const [name, content] of Object.entries(files)) {
        await mkdir(dirname(join(dir, name)), { recursive: true });
        await writeFile(join(dir, name), content);
      }
      return loadProblem(dir);
    },
    judge: (problem, s) =>
      judgeSubmission({ ...s, sandbox: sandbox!, languages: languages!, problem, files: Object.entries(s.files).map(([name, text]) => ({ name, bytes: Buffer.from(text) })) }),
  };
  return fixture;
}

export const SUM_C = '#include <stdio.h>\nint main(void){long a,b;scanf("%ld %ld",&a,&b);printf("%ld\\n",a+b);return 0;}\n';
export const SUM_PY = 'a, b = map(int, input().split())\nprint(a + b)\n';
export const SUM_WRONG_C = '#include <stdio.h>\nint main(void){long a,b;scanf("%ld %ld",&a,&b);printf("%ld\\n",a+b+(a>4));return 0;}\n';

export const sumPackage = () => ({
  'problem.yaml': 'name: Sum\nlimits:\n  memory: 256\n',
  '.timelimit': '1\n',
  'data/sample/1.in': '1 2\n',
  'data/sample/1.ans': '3\n',
  'data/secret/1.in': '2 2\n',
  'data/secret/1.ans': '4\n',
  'data/secret/2.in': '5 5\n',
  'data/secret/2.ans': '10\n',
  'data/secret/3.in': '100 1\n',
  'data/secret/3.ans': '101\n',
});
