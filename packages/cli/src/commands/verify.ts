import { ops, type Trial } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import type { Command } from 'commander';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import { note, type JsonOption } from '../output.js';
import { readPackage, slugFrom } from '../package.js';
import { upload } from '../upload.js';
import { disagreements, renderMeasurement, type Measurement } from '../verify-report.js';
import { positive, sub } from './common.js';

/**
 * `judgectl problems verify DIR|ZIP`: the package goes up as a trial (no problem is created), a
 * runner judges every example submission in it, and the table of expected against actual verdicts
 * comes back, with the time limit problemtools' rule gives. Exit status 1 on any disagreement, a
 * failed trial, or no runner finishing it within --timeout.
 */

interface VerifyOptions extends JsonOption {
  type: string;
  activity?: string;
  timeout: number;
}

export function verifyCommand(problems: Command): void {
  sub(
    problems,
    'verify <package>',
    "Verify an ICPC problem package (a directory or a .zip) as problemtools' verifyproblem does: a runner judges every example submission " +
      'under submissions/ (in every language it has) and reports expected against actual verdicts, the time limit problemtools would set, and ' +
      'what it could not run. No problem is created. Exits non-zero on any disagreement.',
  )
    .option('--type <type>', 'the problem type the package is judged as', 'standard-io@1')
    .option('--activity <idOrSlug>', 'run the trial in an activity where you hold trial:run (default: system-wide)')
    .option('--timeout <seconds>', 'how long to wait for a runner to take the trial and finish it', positive, 900)
    .action(async (path: string, o: VerifyOptions) => {
      const c = await api();
      const pkg = await readPackage(path);
      if (!pkg.hasManifest) throw new CliError(`${path} holds no problem.yaml: it is not a problem package`);
      const name = `${slugFrom(path) || 'package'}.zip`;
      const file = await upload(c, name, pkg.zip, 'application/zip', name);
      const queued = await c.call(ops.createTrial, { body: { problemType: o.type, packageFileId: file.id, ...(o.activity ? { activityIdOrSlug: o.activity } : {}) } });
      const trial = await finished(c, queued, o.timeout);
      if (trial.state === 'failed') {
        if (o.json) console.log(JSON.stringify({ trial }, null, 2));
        throw new CliError(`the trial failed on ${trial.runnerName ?? 'its runner'}: ${trial.failureReason ?? 'no reason given'}`);
      }
      let m: Measurement;
      try {
        m = JSON.parse(trial.measurement ?? '') as Measurement;
      } catch {
        throw new CliError(`the runner ${trial.runnerName ?? ''} reported no readable measurement`);
      }
      console.log(o.json ? JSON.stringify({ trial: { ...trial, measurement: undefined }, measurement: m }, null, 2) : renderMeasurement(m));
      if (!m.ok) {
        const bad = disagreements(m).length;
        note(`judgectl: ${path} does not verify${bad ? `: ${bad} example${bad === 1 ? '' : 's'} disagree` : ''}${m.errors?.length ? `; ${m.errors.join('; ')}` : ''}`);
        process.exitCode = 1;
      }
    });
}

/** Polls the trial until it ends, with a progress line on standard error; refuses after `timeoutSeconds`. */
async function finished(c: JudgeClient, queued: Trial, timeoutSeconds: number): Promise<Trial> {
  const started = Date.now();
  const deadline = started + timeoutSeconds * 1000;
  const tty = process.stderr.isTTY;
  let trial = queued;
  let last = '';
  for (;;) {
    if (trial.state === 'completed' || trial.state === 'failed') break;
    const line = trial.state === 'queued' ? `trial ${trial.id}: waiting for a runner` : `trial ${trial.id}: running on ${trial.runnerName ?? 'a runner'}`;
    const elapsed = Math.round((Date.now() - started) / 1000);
    if (tty) process.stderr.write(`\r${line} (${elapsed} s)\x1b[K`);
    else if (line !== last) note(line);
    last = line;
    if (Date.now() >= deadline) {
      if (tty) process.stderr.write('\n');
      throw new CliError(
        trial.state === 'queued'
          ? `no runner took the trial within ${timeoutSeconds} s: is a runner for ${trial.problemType} approved and running? (trial ${trial.id} stays queued)`
          : `the trial is still running on ${trial.runnerName ?? 'a runner'} after ${timeoutSeconds} s (trial ${trial.id}); give a longer --timeout`,
      );
    }
    await new Promise((r) => setTimeout(r, 500));
    trial = await c.call(ops.getTrial, { params: { trialId: trial.id } });
  }
  if (tty) process.stderr.write('\r\x1b[K');
  return trial;
}
