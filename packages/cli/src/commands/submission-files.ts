import { ops, type Attempt, type JudgeTestDetail, type SubmissionDetail } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import type { Command } from 'commander';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import { emit, note, table, type JsonOption } from '../output.js';
import { isId } from '../resolve.js';
import { positive, sub } from './common.js';

/** A submission id as the server writes them; anything else is refused before asking. */
export function submissionId(id: string): string {
  if (!isId(id)) throw new CliError(`not a submission id: ${id} (ids look like 01a2045f-8567-76a6-bfa4-b95be3e90a7c; \`judgectl submissions list\` shows them)`);
  return id;
}

/** An attempt of a submission by its number; the newest without one. */
export function attemptOf(s: SubmissionDetail, n?: number): Attempt {
  const a = n === undefined ? s.attemptList[0] : s.attemptList.find((x) => x.attempt === n);
  if (!a) throw new CliError(n === undefined ? `${s.id} has no attempt yet` : `${s.id} has no attempt ${n} (it has ${s.attemptList.map((x) => x.attempt).join(', ')})`);
  return a;
}

export const fileText = async (c: JudgeClient, fileId: string): Promise<string> => Buffer.from(await c.call(ops.downloadFile, { params: { id: fileId } })).toString('utf8');

/** The per-test results the runner stored with an attempt (its `details` attachment), if it stored any. */
export async function testResults(c: JudgeClient, a: Attempt): Promise<JudgeTestDetail[] | undefined> {
  const f = a.files.find((x) => x.name === 'details');
  if (!f) return undefined;
  try {
    const d = JSON.parse(await fileText(c, f.fileId)) as { tests?: unknown };
    return Array.isArray(d.tests) ? (d.tests as JudgeTestDetail[]) : [];
  } catch {
    return [];
  }
}

const ms = (n: number | undefined) => (n === undefined ? '' : n < 1000 ? `${Math.round(n)} ms` : `${(n / 1000).toFixed(2)} s`);
const mem = (b: number | null | undefined) => (typeof b !== 'number' ? '' : b < 1024 * 1024 ? `${Math.round(b / 1024)} KiB` : `${(b / 1024 / 1024).toFixed(1)} MiB`);

export function testsTable(tests: JudgeTestDetail[]): string {
  return table(
    ['test', 'group', 'verdict', 'time', 'memory', 'score'],
    tests.map((t) => [
      t.counted === false ? `${t.test} (not counted)` : t.test,
      t.group,
      t.verdict,
      ms(t.cpuMs),
      mem(t.memoryBytes),
      t.score !== undefined ? `${t.score}${typeof t.maxScore === 'number' ? `/${t.maxScore}` : ''}` : '',
    ]),
  );
}

/** Writes the source files where --out or --out-dir says; answers what went where. */
function writeSources(files: { fileName: string; source: string }[], o: { out?: string; outDir?: string }): string {
  if (o.out && o.outDir) throw new CliError('give --out FILE or --out-dir DIR, not both');
  if (o.out && files.length > 1) throw new CliError(`the submission has ${files.length} files (${files.map((f) => f.fileName).join(', ')}): give --out-dir DIR`);
  const targets = o.out ? [{ path: o.out, f: files[0]! }] : files.map((f) => ({ path: join(o.outDir!, basename(f.fileName)), f }));
  if (o.outDir) mkdirSync(o.outDir, { recursive: true });
  for (const t of targets) if (existsSync(t.path)) throw new CliError(`${t.path} exists: judgectl does not overwrite files`);
  for (const t of targets) writeFileSync(t.path, t.f.source);
  return `Wrote ${targets.map((t) => t.path).join(', ')}.`;
}

export function submissionFilesCommands(submissions: Command): void {
  sub(submissions, 'source <id>', 'Print the source of a submission, or save it with --out FILE (one file) or --out-dir DIR (every file)')
    .option('--out <file>', 'save the one source file here instead')
    .option('--out-dir <dir>', 'save every source file in this directory, under its own name')
    .action(async (id: string, o: JsonOption & { out?: string; outDir?: string }) => {
      const c = await api();
      const s = await c.call(ops.getSubmission, { params: { id: submissionId(id) } });
      const files = await Promise.all(s.files.map(async (f) => ({ fileName: f.fileName, language: f.language, sizeBytes: f.sizeBytes, sha256: f.sha256, source: await fileText(c, f.fileId) })));
      if (o.out || o.outDir) return emit(o, files.map(({ source: _, ...f }) => f), () => writeSources(files, o));
      if (o.json) return emit(o, files, () => '');
      if (files.length === 1) return void process.stdout.write(files[0]!.source);
      process.stdout.write(files.map((f) => `==> ${f.fileName} <==\n${f.source}${f.source.endsWith('\n') ? '' : '\n'}`).join('\n'));
    });

  sub(submissions, 'log <id>', "Print an attempt's compiler output and judge log (the runner's compile and log attachments)")
    .option('--attempt <n>', 'this attempt (default: the newest)', positive)
    .action(async (id: string, o: JsonOption & { attempt?: number }) => {
      const c = await api();
      const s = await c.call(ops.getSubmission, { params: { id: submissionId(id) } });
      const a = attemptOf(s, o.attempt);
      const read = async (name: string) => {
        const f = a.files.find((x) => x.name === name);
        return f ? fileText(c, f.fileId) : undefined;
      };
      const [compile, log] = await Promise.all([read('compile'), read('log')]);
      if (compile === undefined && log === undefined) {
        note(`attempt ${a.attempt} of ${s.id} is ${a.state}${a.failureReason ? ` (${a.failureReason})` : ''}: its runner stored no compiler output or judge log`);
      }
      emit(o, { submissionId: s.id, attempt: a.attempt, state: a.state, verdict: a.verdict, compile, log, failureReason: a.failureReason }, () =>
        [
          compile !== undefined ? `== compiler output (attempt ${a.attempt}) ==\n${compile.trimEnd() || '(nothing)'}` : '',
          log !== undefined ? `== judge log (attempt ${a.attempt}) ==\n${log.trimEnd()}` : '',
        ]
          .filter(Boolean)
          .join('\n\n'),
      );
    });
}
