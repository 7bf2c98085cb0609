import type { TrialMeasurement } from '@judge/sdk';
import { fields, plural, table } from './output.js';

/** A trial's measurement as the runner reports it (the SDK holds its shape, which the web's trial table reads too). */
export type Measurement = TrialMeasurement;

const seconds = (ms: number | undefined) => (ms === undefined ? '' : `${(ms / 1000).toFixed(2)} s`);

/** The examples that disagree with their directory. */
export const disagreements = (m: Measurement) => (m.submissions ?? []).filter((s) => s.ok === false);

/** The table `judgectl problems verify` prints: one row per example, then the time limit, what did not run, and the verdict. */
export function renderMeasurement(m: Measurement): string {
  const scoring = m.problem?.type === 'scoring';
  const rows = (m.submissions ?? []).map((s) => [
    s.path,
    s.language ?? '',
    s.expected,
    scoring && s.verdict === 'AC' ? `AC ${s.score ?? 0}${s.maxScore !== undefined ? `/${s.maxScore}` : ''}` : s.verdict,
    seconds(s.slowestMs),
    s.ok === null ? '-' : s.ok ? 'yes' : `NO${s.why ? `: ${s.why}` : ''}`,
  ]);
  const out = [table(['submission', 'language', 'expected', 'actual', 'time', 'agree'], rows)];
  out.push(fields(timeLines(m)));
  if (m.notRun?.length) {
    out.push(`Not run (${m.notRun.length}):`);
    for (const n of m.notRun) out.push(`  ${n.path}: ${n.reason}`);
  }
  for (const e of m.errors ?? []) out.push(`error: ${e}`);
  for (const w of m.warnings ?? []) out.push(`warning: ${w}`);
  const ran = m.submissions?.length ?? 0;
  const bad = disagreements(m).length;
  out.push(
    `${plural(ran, 'example')} run: ${ran - bad} agree, ${bad} ${bad === 1 ? 'disagrees' : 'disagree'}` +
      `${m.notRun?.length ? `; ${m.notRun.length} not run` : ''} — ${m.ok ? 'the package verifies' : 'the package does NOT verify'}`,
  );
  return out.join('\n');
}

function timeLines(m: Measurement): [string, string][] {
  const t = m.timing ?? {};
  const lines: [string, string][] = [];
  const limit = t.timeLimitSeconds !== undefined ? `${t.timeLimitSeconds} s (${t.timeLimitSource ?? 'package'})` : `the runner's default (${t.timeLimitSource ?? ''})`;
  lines.push(['time limit', limit]);
  if (t.slowestAcceptedMs !== undefined) {
    const runs = t.slowestAcceptedRunsMs?.length ? `; CPU time, least of ${t.slowestAcceptedRunsMs.map(seconds).join(', ')}` : '';
    lines.push(['slowest accepted', `${seconds(t.slowestAcceptedMs)} (${t.slowestAccepted ?? ''}${runs})`]);
  }
  if (t.suggestedTimeLimitSeconds !== undefined) {
    lines.push(['suggested time limit', `${t.suggestedTimeLimitSeconds} s (slowest accepted × ${t.multiplier}, ${t.multiplierKey}; problemtools' rule)`]);
  }
  if (t.tleMarginSeconds !== undefined) lines.push(['TLE examples must exceed', `${t.tleMarginSeconds} s (× ${t.safetyMargin}, ${t.safetyMarginKey})`]);
  if (t.calibrated && t.calibrationTimeLimitSeconds !== undefined) lines.push(['calibration', `accepted examples ran under ${t.calibrationTimeLimitSeconds} s: the package names no time limit`]);
  return lines;
}
