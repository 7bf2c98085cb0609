import type { Command } from 'commander';
import { api, signedIn } from '../client.js';
import { checkTarget, exportableActivity, exportContest } from '../contest-export.js';
import { readContestPackage } from '../contest-package.js';
import { checkPackageFree, importContestPackage, notePenalty, slugOf, type PackageImported, type PackageImportOptions } from '../contest-package-import.js';
import { emit, plural, table, type JsonOption } from '../output.js';
import { inZone } from '../zoned-time.js';
import { sub } from './common.js';

/** `contest import DIR` when DIR holds contest.yaml or contest.json: a CLICS contest package (docs/contest-package.md). */
export async function importPackageDir(dir: string, o: JsonOption & PackageImportOptions): Promise<void> {
  const pkg = readContestPackage(dir);
  const slug = slugOf(pkg, o);
  const { client: c, creds } = await signedIn();
  const existing = await checkPackageFree(c, pkg, slug, o, creds.username);
  notePenalty(pkg);
  const r = await importContestPackage(c, pkg, slug, o, creds.username, existing);
  emit(o, r, () => importSummary(r));
}

function importSummary(r: PackageImported): string {
  const a = r.activity;
  const lines = [
    `Created the contest ${a.slug} (${a.name}) with the series ${r.series.slug}, from ${inZone(r.series.startDate!, a.timeZone)} to ${inZone(r.series.endDate!, a.timeZone)}` +
      `${r.series.rankingFreezeAt ? `, frozen from ${inZone(r.series.rankingFreezeAt, a.timeZone)}` : ''}.`,
  ];
  if (r.problems.length) lines.push(table(['label', 'slug', 'name', 'library problem', 'version'], r.problems.map((p) => [p.label, p.slug, p.name, p.problem, p.version])));
  if (r.accounts.length) {
    const said = { package: "the package's", generated: 'issued (in the credentials file)', unchanged: 'unchanged (existing account)' };
    lines.push(table(['username', 'type', 'team', 'password'], r.accounts.map((x) => [x.username, x.kind === 'team' ? 'participant' : 'staff (manager)', x.teamId, said[x.password]])));
  }
  if (r.credentialsFile) lines.push(`The issued passwords are in ${r.credentialsFile} (readable by you only): hand them over, then delete the file.`);
  return lines.join('\n');
}

async function exportPackage(activity: string, dir: string, o: JsonOption & { withResults?: boolean; force?: boolean }): Promise<void> {
  checkTarget(dir, !!o.force);
  const c = await api();
  const a = await exportableActivity(c, activity);
  const written = await exportContest(c, a, dir, !!o.withResults);
  emit(o, { activity: a.slug, dir, files: written }, () =>
    [
      table(['file', 'objects', 'bytes'], written.map((w) => [w.path, w.items, w.bytes])),
      `Wrote the contest package of ${a.slug} to ${dir}: ${plural(written.length, 'file')}.`,
    ].join('\n'),
  );
}

export function contestExportCommand(contest: Command): void {
  sub(
    contest,
    'export <activity> <dir>',
    'Write the CLICS contest package (2023-06) of a contest: api.json, contest.json and contest.yaml, judgement-types, languages, problems (also as problems.yaml and ' +
      "DOMjudge's problemset.yaml), groups, organizations, teams and accounts (never a password) as the judge's CLICS API serves them to you, and each problem's " +
      'package at problems/ID/ID.zip. Needs the rights of the activity\'s staff (activity:update and submission:read:all there). DIR must be empty or new unless --force.',
  )
    .option('--with-results', 'also submissions, judgements, runs, clarifications, awards, scoreboard and state (JSON; no submission files)')
    .option('--force', 'write into a directory that is not empty (files of the same names are replaced, others are left)')
    .action(exportPackage);
}
