import { ops, type ProblemVersion } from '@judge/contract';
import type { Command } from 'commander';
import { api } from '../client.js';
import { publishVersion } from '../importer.js';
import { emit, fields, plural, table, when, type JsonOption } from '../output.js';
import { readPackage } from '../package.js';
import { resolveProblem } from '../resolve.js';
import { sub } from './common.js';

function versionFields(v: ProblemVersion, statements: string[]): string {
  const info = v.package;
  return fields([
    ['version', v.version],
    ['id', v.id],
    ['note', v.note],
    ['statement', statements.length ? statements.join(', ') : "the previous version's (none in the package)"],
    ['time limit', info?.timeLimitSeconds !== undefined ? `${info.timeLimitSeconds} s` : 'default'],
    ['memory', info?.memoryMiB !== undefined ? `${info.memoryMiB} MiB` : 'default'],
    ['tests', info ? `${info.sampleCount} sample, ${info.secretCount} secret` : ''],
  ]);
}

/** Problem commands about one problem's life after its import: versions, a new version, deletion. */
export function problemVersionsCommands(problems: Command): void {
  sub(problems, 'versions <problem>', 'List the versions of a problem (slug or id), newest first').action(async (problem: string, o: JsonOption) => {
    const c = await api();
    const p = await resolveProblem(c, problem);
    const versions = await c.call(ops.listProblemVersions, { params: { problemId: p.id } });
    emit(o, versions, () =>
      `${table(
        ['version', 'created', 'by', 'package', 'time limit', 'tests', 'note', 'id'],
        versions.map((v) => [
          v.version,
          when(v.createdAt),
          v.createdByName,
          v.hasPackage,
          v.package?.timeLimitSeconds !== undefined ? `${v.package.timeLimitSeconds} s` : '',
          v.package ? `${v.package.sampleCount}+${v.package.secretCount}` : '',
          v.note,
          v.id,
        ]),
      )}\n${plural(versions.length, 'version')} of ${p.slug}`,
    );
  });

  sub(
    problems,
    'update <problem> <package>',
    "Upload an ICPC package (a directory or a .zip) as a new version of an existing problem; assignments follow it unless pinned (`judgectl assignments update --pin`). " +
      "The package's statements replace the previous version's; without any the previous ones stay.",
  )
    .option('--note <text>', 'what changed (kept with the version)')
    .action(async (problem: string, path: string, o: JsonOption & { note?: string }) => {
      const c = await api();
      const p = await resolveProblem(c, problem);
      const pkg = await readPackage(path);
      const { version, statements } = await publishVersion(c, p, pkg, { note: o.note ?? `updated by judgectl from ${pkg.source}` });
      emit(o, { problem: { ...p, currentVersion: version.version }, version }, () => `${p.slug} is now at version ${version.version}.\n${versionFields(version, statements)}`);
    });

  sub(problems, 'delete <problem>', 'Delete a problem (slug or id) with every version; the server refuses while a series uses it').action(async (problem: string, o: JsonOption) => {
    const c = await api();
    const p = await resolveProblem(c, problem);
    await c.call(ops.deleteProblem, { params: { id: p.id } });
    emit(o, { deleted: p.id, slug: p.slug }, () => `Deleted the problem ${p.slug} (${p.id}).`);
  });
}
