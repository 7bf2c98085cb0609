/**
 * `judge-runner languages`: which languages of the table this machine has, and installing the
 * Debian packages that bring the missing ones. The table names each language's packages
 * (`debianPackages`); apt-get does the rest, as root only.
 */
import { spawnSync } from 'node:child_process';
import { readLanguageTableFile } from '@judge/problem-package';
import type { Command } from 'commander';
import { defaultLanguagesPath, isPresent, loadLanguages } from './languages.js';

export interface LanguageStatus {
  id: string;
  name: string;
  installed: boolean;
  debianPackages: string[];
  /** The files the language needs that are missing (empty when installed). */
  missing: string[];
}

/** Every language of the table with whether its toolchain is installed and the packages that bring it. */
export function languageStatus(file: string = process.env.JUDGE_LANGUAGES ?? defaultLanguagesPath()): LanguageStatus[] {
  const raw = readLanguageTableFile(file);
  const table = loadLanguages(file);
  return [...table.languages.values()].map((l) => ({
    id: l.id,
    name: l.name,
    installed: l.present,
    debianPackages: raw.languages[l.id]?.debianPackages ?? [],
    missing: l.requires.filter((r) => !isPresent(r)),
  }));
}

export class LanguagesCommandError extends Error {}

/** The Debian packages of these languages (ids of the table), each once, in table order. */
export function packagesOf(status: LanguageStatus[], ids: string[] | 'all'): { packages: string[]; languages: LanguageStatus[] } {
  const known = new Map(status.map((s) => [s.id, s]));
  const unknown = ids === 'all' ? [] : ids.filter((id) => !known.has(id));
  if (unknown.length) throw new LanguagesCommandError(`unknown language${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; the table has ${[...known.keys()].join(', ')}`);
  const chosen = ids === 'all' ? status : ids.map((id) => known.get(id)!);
  return { packages: [...new Set(chosen.flatMap((s) => s.debianPackages))], languages: chosen };
}

/** Packages apt knows (the others are reported, not fatal: another Debian release may lack one). */
function availablePackages(packages: string[]): { available: string[]; unavailable: string[] } {
  const available: string[] = [];
  const unavailable: string[] = [];
  for (const p of packages) {
    const r = spawnSync('apt-cache', ['policy', p], { encoding: 'utf8' });
    const candidate = /Candidate:\s*(\S+)/.exec(r.stdout ?? '')?.[1];
    (candidate && candidate !== '(none)' ? available : unavailable).push(p);
  }
  return { available, unavailable };
}

function run(argv: string[], say: (line: string) => void, json: boolean): void {
  say(`+ ${argv.join(' ')}`);
  const r = spawnSync(argv[0]!, argv.slice(1), {
    stdio: ['ignore', json ? process.stderr : 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (r.error) throw new LanguagesCommandError(`${argv[0]}: ${r.error.message}`);
  if (r.status !== 0) throw new LanguagesCommandError(`${argv.join(' ')} failed (exit ${r.status ?? r.signal})`);
}

/** Installs the Debian packages of the languages with apt-get; root only. */
export function installLanguages(
  ids: string[] | 'all',
  /** `uid`: the user it runs as (this process's); apt-get needs root. */
  opts: { table?: string; json?: boolean; update?: boolean; uid?: number } = {},
): { installed: string[]; unavailable: string[]; languages: LanguageStatus[] } {
  const file = opts.table ?? process.env.JUDGE_LANGUAGES ?? defaultLanguagesPath();
  const { packages } = packagesOf(languageStatus(file), ids);
  const say = (line: string) => (opts.json ? console.error(line) : console.log(line));
  if ((opts.uid ?? process.getuid?.()) !== 0) {
    throw new LanguagesCommandError(`installing languages needs root (apt-get); as root run \`judge-runner languages install ${ids === 'all' ? '--all' : ids.join(' ')}\`, or yourself: apt-get install -y --no-install-recommends ${packages.join(' ')}`);
  }
  if (spawnSync('apt-get', ['--version']).status !== 0) throw new LanguagesCommandError(`apt-get is not available: install ${packages.join(' ')} with this system's package manager`);
  if (opts.update !== false) run(['apt-get', 'update', '-qq'], say, !!opts.json);
  const { available, unavailable } = availablePackages(packages);
  if (unavailable.length) say(`not in this system's package archive, skipped: ${unavailable.join(' ')}`);
  if (available.length) run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', '--no-upgrade', ...available], say, !!opts.json);
  const after = languageStatus(file);
  const wanted = new Set(ids === 'all' ? after.map((s) => s.id) : ids);
  return { installed: available, unavailable, languages: after.filter((s) => wanted.has(s.id)) };
}

function printStatus(status: LanguageStatus[]): void {
  const w = Math.max(...status.map((s) => s.id.length));
  for (const s of status) {
    const packages = s.debianPackages.length ? s.debianPackages.join(' ') : '(no Debian package named)';
    console.log(`${s.id.padEnd(w)}  ${s.installed ? 'yes' : 'no '}  ${s.name}  [${packages}]`);
  }
  const n = status.filter((s) => s.installed).length;
  console.log(`${n} of ${status.length} installed${n < status.length ? '; as root, `judge-runner languages install --all` installs the rest' : ''}`);
}

/** Adds `languages` (list) and `languages install` to the command line. */
export function registerLanguagesCommand(program: Command): void {
  const fail = (e: unknown) => {
    if (!(e instanceof LanguagesCommandError)) throw e;
    console.error(`judge-runner: ${e.message}`);
    process.exitCode = 1;
  };
  const languages = program
    .command('languages')
    .description('List the languages of the table: installed or not, and the Debian packages that bring each')
    .option('--languages <file>', 'the language table (default config/languages.json, or JUDGE_LANGUAGES)')
    .option('--json', 'print JSON')
    .action((o: { languages?: string; json?: boolean }) => {
      const status = languageStatus(o.languages);
      if (o.json) console.log(JSON.stringify(status, null, 2));
      else printStatus(status);
    });
  languages
    .command('install')
    .description('Install the Debian packages of these languages with apt-get (root only)')
    .argument('[ids...]', 'language ids of the table (see `judge-runner languages`)')
    .option('--all', 'every language of the table')
    .option('--no-update', 'skip `apt-get update`')
    .option('--languages <file>', 'the language table (default config/languages.json, or JUDGE_LANGUAGES)')
    .option('--json', 'print the result as JSON (apt-get writes to stderr)')
    .action((ids: string[], o: { all?: boolean; update: boolean; languages?: string; json?: boolean }) => {
      try {
        if (!o.all && ids.length === 0) throw new LanguagesCommandError('name the languages to install, or --all');
        if (o.all && ids.length) throw new LanguagesCommandError('either language ids or --all, not both');
        const r = installLanguages(o.all ? 'all' : ids, { json: !!o.json, update: o.update, ...(o.languages ? { table: o.languages } : {}) });
        if (o.json) return console.log(JSON.stringify(r, null, 2));
        printStatus(r.languages);
        const absent = r.languages.filter((s) => !s.installed);
        if (absent.length) {
          console.log(`still missing: ${absent.map((s) => `${s.id} (${s.missing.join(', ') || 'see its notes'})`).join('; ')}`);
          process.exitCode = 1;
        }
      } catch (e) {
        fail(e);
      }
    });
}
