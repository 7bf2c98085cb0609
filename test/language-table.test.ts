import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { Sandbox, defaultLanguagesPath, judgeSubmission, loadLanguages, loadProblem } from '@judge/runner';
import { TestJudge } from '../packages/server/test/harness.js';
import { zipOf } from '../packages/server/test/zips.js';
import { settled } from './one-problem-contest.js';
import { uidBaseOfRun } from './runner-process.js';

/**
 * Adding a language is one entry in the language table and nothing else: a table made of the
 * default one plus a C dialect with its own extension (.c99, gcc -std=c99), given to the runner,
 * to `judge-runner check` and to the server, and a program in it judged accepted end to end.
 */

const RUNNER = fileURLToPath(new URL('../bin/judge-runner', import.meta.url));
/** Sandbox slot uids of this file's runner: a range of its own. */
const UID_BASE = uidBaseOfRun(60300);
const sha = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');

const C99 = {
  name: 'C99 (gcc, -std=c99)',
  extensions: ['c99'],
  sourceFile: 'main.c',
  binary: 'main',
  compiled: true,
  requires: ['/usr/bin/gcc'],
  compile: { argv: ['/usr/bin/gcc', '-x', 'c', '-std=c99', '-pedantic-errors', '-O2', '-static', '-o', '{binary}', '{source}'] },
  run: { argv: ['/box/{binary}'] },
  addressSpaceLimit: true,
  selfTest: '#include <stdio.h>\nint main(void) {\n  int c;\n  while ((c = getchar()) != EOF) putchar(c);\n  return 0;\n}\n',
};

/** Sum in C99: `for (int ...)` and `//` comments, which -std=c89 would refuse. */
const SUM_C99 = '#include <stdio.h>\nint main(void) {\n  long a, b; // c99\n  if (scanf("%ld %ld", &a, &b) != 2) return 1;\n  for (int i = 0; i < 1; i++) printf("%ld\\n", a + b);\n  return 0;\n}\n';

const SUM = {
  'problem.yaml': 'name: Sum\nlimits:\n  memory: 256\n',
  '.timelimit': '2\n',
  'data/sample/1.in': '1 2\n',
  'data/sample/1.ans': '3\n',
  'data/secret/1.in': '5 5\n',
  'data/secret/1.ans': '10\n',
};

const run = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(RUNNER, args, { encoding: 'utf8' }, (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })),
  );

const sandboxed = describe.skipIf(Sandbox.findBwrap() === null);
let work: string;
/** The default table plus the one new entry. */
let tableFile: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'judge-language-table-'));
  const table = JSON.parse(readFileSync(defaultLanguagesPath(), 'utf8')) as { languages: Record<string, unknown> };
  table.languages.c99 = C99;
  tableFile = join(work, 'languages.json');
  writeFileSync(tableFile, JSON.stringify(table, null, 2));
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

sandboxed('a language added by one entry in the language table: the runner', () => {

  it('the runner compiles and judges a program in it', async () => {
    const languages = loadLanguages(tableFile);
    expect(languages.byExtension('c99')?.id).toBe('c99');
    const dir = join(work, 'sum');
    for (const [name, content] of Object.entries(SUM)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), content);
    }
    const sandbox = await Sandbox.create({ workRoot: join(work, 'sandbox'), insecureNoCgroup: true });
    try {
      const problem = await loadProblem(dir, languages);
      const accepted = await judgeSubmission({ sandbox, languages, problem, files: [{ name: 'sum.c99', bytes: Buffer.from(SUM_C99) }] });
      expect(accepted).toMatchObject({ verdict: 'AC', score: 1 });
      // and it really is the dialect: C99 refuses what only GNU C allows
      const gnu = await judgeSubmission({ sandbox, languages, problem, files: [{ name: 'sum.c99', bytes: Buffer.from('int main(void) { return ({ 0; }); }\n') }] });
      expect(gnu.verdict).toBe('CE');
    } finally {
      await sandbox.close();
    }
  });

  it('judge-runner check exercises it through its self-test program', async () => {
    const r = await run(['check', '--languages', tableFile, '--only', 'c99', '--json', '--insecure-no-cgroup']);
    const report = JSON.parse(r.stdout) as { languages: { id: string; present: boolean; ok: boolean; run?: { outputOk: boolean } }[] };
    expect(report.languages, r.stderr).toEqual([expect.objectContaining({ id: 'c99', present: true, ok: true, run: expect.objectContaining({ outputOk: true }) })]);
  });

});

sandboxed('a language added by one entry in the language table: the server started with the table, and a runner', () => {
  let j: TestJudge;
  let runner: ChildProcess | undefined;
  const logs: string[] = [];

  beforeAll(async () => {
    j = await TestJudge.start({ config: { languages: tableFile } });
  }, 60_000);
  afterAll(async () => {
    if (runner && runner.exitCode === null) runner.kill('SIGKILL');
    await j?.stop();
  });

  it('accepts a submission naming the extension, records the language, and the runner accepts it', async () => {
    const admin = await j.admin();
    const act = await admin.call(ops.createActivity, { body: { slug: 'langs', name: 'Languages', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', unlisted: false } });
    const series = await admin.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: 'main', name: 'Main' } });
    const p = await admin.call(ops.createProblem, { body: { slug: 'sum-c99', name: 'Sum', type: 'standard-io@1' } });
    const pkg = await admin.upload('sum.zip', await zipOf(SUM), 'application/zip');
    await admin.call(ops.createProblemVersion, { params: { problemId: p.id }, body: { package: { fileId: pkg.id } } });
    await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: p.id, slug: 'sum' } });
    const participant = await j.signIn(await j.user('c99-author'));
    await participant.call(ops.enrol, { params: { idOrSlug: act.slug }, body: {} });

    const form = new FormData();
    form.set('code', SUM_C99);
    form.set('fileName', 'sum.c99');
    form.set('sha256', sha(SUM_C99));
    const s = await participant.call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: 'sum' }, form });
    const recorded = await admin.call(ops.getSubmission, { params: { id: s.id } });
    expect(recorded.files.map((f) => [f.fileName, f.language])).toEqual([['sum.c99', 'c99']]);

    const dir = join(work, 'runner');
    const reg = await run(['register', '--server', j.url, '--name', 'c99-runner', '--config-dir', dir, '--json']);
    const { runnerId } = JSON.parse(reg.stdout) as { runnerId: string };
    await admin.call(ops.approveRunner, { params: { id: runnerId } });
    runner = spawn(RUNNER, ['start', '--config-dir', dir, '--languages', tableFile, '--uid-base', String(UID_BASE)], { stdio: ['ignore', 'pipe', 'pipe'] });
    runner.stdout!.on('data', (d: Buffer) => logs.push(d.toString()));
    runner.stderr!.on('data', (d: Buffer) => logs.push(d.toString()));
    const judged = await settled(participant, act.slug, s.id, { ms: 120_000, stepMs: 100 });
    expect(judged, logs.join('')).toMatchObject({ state: 'completed', verdict: 'AC' });
  }, 180_000);
});
