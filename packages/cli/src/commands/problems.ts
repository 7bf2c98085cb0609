import { ops, type Problem } from '@judge/contract';
import type { Command } from 'commander';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import { importProblem } from '../importer.js';
import { emit, fields, plural, table, when, type JsonOption } from '../output.js';
import { allPages } from '../resolve.js';
import { sub } from './common.js';
import { problemSharingCommands } from './problem-sharing.js';
import { problemVersionsCommands } from './problem-versions.js';
import { verifyCommand } from './verify.js';

export function problemsTable(list: Problem[]): string {
  return table(
    ['id', 'slug', 'name', 'type', 'version', 'owner', 'visibility', 'used in', 'created'],
    list.map((p) => [p.id, p.slug, p.name, p.type, p.currentVersion || '', p.ownerName, p.visibility, p.attachedCount, when(p.createdAt)]),
  );
}

export function problemsCommands(program: Command): void {
  const problems = program.command('problems').description('The problem library: import ICPC problem packages, list, new versions, delete');

  sub(
    problems,
    'import <package>',
    'Import an ICPC problem package (a directory or a .zip): creates the problem (standard-io@1), uploads the package and creates the first version. ' +
      'The server takes the statements from the package (problem_statement/ or statement/problem[.LANG].{md,tex,html,pdf}, LaTeX converted to HTML); ' +
      'a generated one is sent when there is none. ' +
      'A package the server refuses leaves no problem behind.',
  )
    .option('--slug <slug>', 'the problem slug (default: the directory or zip name)')
    .option('--name <name>', "the problem name (default: problem.yaml's name)")
    .option('--type <type>', 'the problem type', 'standard-io@1')
    .action(async (path: string, o: JsonOption & { slug?: string; name?: string; type: string }) => {
      const c = await api();
      const r = await importProblem(c, path, o);
      const info = r.version.package;
      emit(o, { problem: r.problem, version: r.version }, () =>
        fields([
          ['id', r.problem.id],
          ['slug', r.problem.slug],
          ['name', r.problem.name],
          ['version', r.version.version],
          ['statement', r.statements.length ? r.statements.join(', ') : 'generated (none in the package)'],
          ['format', info?.format],
          ['time limit', info?.timeLimitSeconds !== undefined ? `${info.timeLimitSeconds} s` : 'default'],
          ['memory', info?.memoryMiB !== undefined ? `${info.memoryMiB} MiB` : 'default'],
          ['tests', info ? `${info.sampleCount} sample, ${info.secretCount} secret` : ''],
        ]),
      );
    });

  verifyCommand(problems);
  problemVersionsCommands(problems);
  problemSharingCommands(problems);

  sub(problems, 'list', 'List the problems you may read')
    .option('--search <text>', 'part of the slug or name')
    .option('--mine', 'only problems you own')
    .option('--shared', 'only problems others shared with you (by name or with everyone)')
    .option('--archived', 'include archived problems')
    .action(async (o: JsonOption & { search?: string; mine?: boolean; shared?: boolean; archived?: boolean }) => {
      // together they would match nothing: yours are never shared with you
      if (o.mine && o.shared) throw new CliError('give at most one of --mine and --shared');
      const c = await api();
      const all = await allPages((page, pageSize) =>
        c.call(ops.listProblems, {
          query: { page, pageSize, ...(o.search ? { search: o.search } : {}), ...(o.mine ? { mineOnly: 'true' as const } : {}), ...(o.shared ? { sharedOnly: 'true' as const } : {}), ...(o.archived ? { includeArchived: 'true' as const } : {}) },
        }),
      );
      emit(o, all, () => `${problemsTable(all)}\n${plural(all.length, 'problem')}`);
    });
}
