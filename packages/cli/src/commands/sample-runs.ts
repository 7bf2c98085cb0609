import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { ops, type SampleRun } from '@judge/contract';
import type { Command } from 'commander';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import { emit, table, type JsonOption } from '../output.js';
import { sub } from './common.js';

/** How often a waiting `try` asks for its run, and for how long at most. */
const POLL_MS = 500;
const WAIT_MS = 10 * 60_000;

/** A run as the terminal shows it: a line per sample, then what a failed sample got against what it expected. */
export function sampleRunText(r: SampleRun): string {
  const head = `Sample run ${r.id}: ${r.state}${r.verdict ? `, ${r.verdict}` : ''}${r.failureReason ? ` (${r.failureReason})` : ''}`;
  const parts = [head];
  if (r.compileOutput) parts.push(`Compiler output:\n${r.compileOutput.trimEnd()}`);
  if (r.samples.length) {
    parts.push(table(['sample', 'verdict', 'time'], r.samples.map((s) => [s.name, s.verdict, s.cpuMs !== undefined ? `${s.cpuMs} ms` : ''])));
    for (const s of r.samples.filter((x) => x.verdict !== 'AC')) {
      if (s.input === undefined && s.output === undefined) continue;
      parts.push(`--- ${s.name} (${s.verdict})\ninput:\n${s.input ?? ''}expected:\n${s.expected ?? ''}your output:\n${s.output ?? '(none)\n'}${s.feedback ? `judge: ${s.feedback}\n` : ''}`.trimEnd());
    }
  }
  return parts.join('\n');
}

/** `judgectl submissions try`: a participant's code on the samples, never a submission. */
export function sampleRunCommands(submissions: Command): void {
  sub(submissions, 'try <activity> <problem> <files...>', "Run code on a problem's samples only and print each sample's result; never a submission (no penalty, not counted)")
    .option('--language <id>', 'the language (default: from the file names)')
    .option('--no-wait', 'print the queued run and return at once')
    .action(async (activity: string, problem: string, paths: string[], o: JsonOption & { language?: string; wait: boolean }) => {
      const c = await api();
      const files = await Promise.all(
        paths.map(async (p) => {
          try {
            return { name: basename(p), code: await readFile(p, 'utf8') };
          } catch (e) {
            throw new CliError(`cannot read ${p}: ${(e as Error).message}`);
          }
        }),
      );
      let r = await c.call(ops.runSamples, { params: { idOrSlug: activity, problemSlug: problem }, body: { files, ...(o.language ? { language: o.language } : {}) } });
      const deadline = Date.now() + WAIT_MS;
      while (o.wait && (r.state === 'queued' || r.state === 'running')) {
        if (Date.now() > deadline) throw new CliError(`sample run ${r.id} is still ${r.state} after ${WAIT_MS / 60_000} minutes; look again later with --json`);
        await new Promise((done) => setTimeout(done, POLL_MS));
        r = await c.call(ops.getSampleRun, { params: { sampleRunId: r.id } });
      }
      emit(o, r, () => sampleRunText(r));
    });
}
