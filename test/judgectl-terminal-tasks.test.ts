import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { JUDGECTL } from './cli-child.js';
import { namedFlags } from './command-flags.js';

const JUDGE = fileURLToPath(new URL('../bin/judge', import.meta.url));
const run = promisify(execFile);

/**
 * The task list as the web app holds it, read as text (the web app's sources are not part of this
 * program): the command of every task, and which of them sit in the per-activity part.
 */
const TASKS = readFileSync(fileURLToPath(new URL('../packages/web/src/pages/staff/terminal/tasks.ts', import.meta.url)), 'utf8');
const commandsOf = (text: string) => [...text.matchAll(/command: '([^']+)'/g)].map((m) => m[1]!);
const [ACTIVITY_PART = '', GLOBAL_PART = ''] = TASKS.split('export const GLOBAL_TASKS');

/** A program's `--help` for a subcommand path (the built launchers, `pnpm build` first). */
const help = async (program: string, path: string[]) => (await run(program === 'judge' ? JUDGE : JUDGECTL, [...path, '--help'], { encoding: 'utf8' })).stdout;

/** The program and its subcommand words: everything before the first argument, placeholder or flag. */
function pathOf(command: string): { program: string; path: string[] } {
  const words = command.split(/\s+/);
  const path: string[] = [];
  for (const w of words.slice(1)) {
    if (/^[a-z][a-z-]*$/.test(w)) path.push(w);
    else break;
  }
  return { program: words[0]!, path };
}

/**
 * The commands the staff pages name under "From a terminal" (pages/staff/terminal/tasks.ts) are
 * real: each subcommand is listed by its group's --help, and each flag a command line names by the
 * command's own --help. Each distinct help is read once.
 */
describe('the terminal commands the staff pages name', () => {
  const commands = [...commandsOf(ACTIVITY_PART), ...commandsOf(GLOBAL_PART)];

  it('names judgectl (and judge for a backup) with subcommands and flags they have', { timeout: 300_000 }, async () => {
    expect(commands.length).toBeGreaterThan(30);
    const helps = new Map<string, Promise<string>>();
    const helpOf = (program: string, path: string[]) => {
      const key = [program, ...path].join(' ');
      if (!helps.has(key)) helps.set(key, help(program, path));
      return helps.get(key)!;
    };
    const problems: string[] = [];
    for (const command of commands) {
      const { program, path } = pathOf(command);
      expect(['judgectl', 'judge'], command).toContain(program);
      // the group lists the subcommand (`maintenance drain`: drain is an argument, which maintenance's help names)
      const [group, ...rest] = path;
      const listing = rest.length ? await helpOf(program, [group!]) : await helpOf(program, []);
      const word = rest[0] ?? group!;
      if (!new RegExp(`^\\s+${word}\\b`, 'm').test(listing) && !listing.includes(`${word}`)) problems.push(`${command}: no ${word}`);
      const flags = namedFlags(command);
      if (!flags.length) continue;
      const own = await helpOf(program, path.slice(0, 2));
      for (const flag of flags) if (!new RegExp(`(^|\\s)${flag}\\b`, 'm').test(own)) problems.push(`${command}: ${flag}`);
    }
    expect(problems).toEqual([]);
  });

  it('fills in the activity wherever a command is about one', () => {
    const activity = commandsOf(ACTIVITY_PART);
    expect(activity.length).toBeGreaterThan(20);
    for (const c of activity) if (/--activity|^judgectl (series|assign|assignments|ranking|activities)/.test(c)) expect(c, c).toContain('{activity}');
  });
});
