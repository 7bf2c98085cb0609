import { makePrivate, placeDirectory } from '../place.js';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { compileInBox, entryOf, readHead, runCommand, sourceExtensions, sourceName, type Language, type LanguageRun, type LanguageTable } from '../languages.js';
import { outsideCancel } from '../sandbox/cancel-scope.js';
import type { Box, Sandbox } from '../sandbox/sandbox.js';
import type { Limits, RunResult } from '../sandbox/types.js';
import type { ProgramSource } from './types.js';

/**
 * Building programs in the sandbox: a submission with its include/ files, and a package's output
 * validator (once per package, kept in the package's build directory).
 *
 * languages.ts's `compile()` copies only the main source into the box; include/ files, drivers
 * and validator directories need every file present, so this module prepares the box itself and
 * runs the table's compile command there (same placeholders, same limits).
 */

/** What of the sandbox the judge uses. */
/** What judging needs of the sandbox (sessions where it has them: the tests of a submission run in one). */
export type JudgeSandbox = Pick<Sandbox, 'run' | 'start' | 'prepareBox' | 'workRoot'> & Partial<Pick<Sandbox, 'openSession'>>;

const MiB = 1024 * 1024;
const LOG_BYTES = 64 * 1024;

/** Limits for build scripts of validators (the table's compile limits apply to languages). */
export const BUILD_LIMITS: Limits = { cpuMs: 60_000, wallMs: 120_000, memoryBytes: 2048 * MiB, pids: 64, outputBytes: 256 * MiB };

export interface ProgramFile {
  /** Relative path inside the box (no `..`, no leading `/`). */
  name: string;
  bytes: Uint8Array;
}

export interface Compiled {
  ok: boolean;
  /** Compiler output, or why it failed. */
  log: string;
  box: Box;
  /** Entry point for runCommand (Java's main class). */
  entry: string;
  /** The source file name the table's commands use. */
  source: string;
  result?: RunResult;
}

/** A name safe to write below a directory: relative, no `..`, no empty or dot segments. */
export function safeRelative(name: string): boolean {
  if (!name || name.startsWith('/') || name.includes('\\') || name.includes('\0')) return false;
  return name.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

async function writeFiles(dir: string, files: ProgramFile[]): Promise<void> {
  for (const f of files) {
    if (!safeRelative(f.name)) throw new Error(`unsafe file name ${JSON.stringify(f.name)}`);
    const target = path.join(dir, f.name);
    await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
    await fs.promises.writeFile(target, f.bytes, { mode: 0o644 });
    await fs.promises.chmod(target, 0o644);
  }
}

/**
 * Compiles `main` (one of `files`) with the table's command in a fresh box holding every file.
 * The main source is also written under the language's own file name (main.cpp, Main.java) unless
 * a file of that name is already there, in which case that one (an include/ driver) is compiled.
 */
export async function compileFiles(
  sandbox: JudgeSandbox,
  lang: Language,
  files: ProgramFile[],
  main: string,
  opts: { limits?: Partial<Limits> } = {},
): Promise<Compiled> {
  const byName = new Map(files.map((f) => [f.name, f]));
  let mainFile = byName.get(main);
  if (!mainFile) throw new Error(`compileFiles: ${main} is not among the files`);
  let entry = entryOf(lang, mainFile.bytes);
  let source = sourceName(lang, entry);
  const driver = byName.get(source);
  if (driver && driver !== mainFile) {
    mainFile = driver;
    entry = entryOf(lang, mainFile.bytes);
    source = sourceName(lang, entry);
  }
  const box = await sandbox.prepareBox();
  await writeFiles(box.path, source === mainFile.name ? files : [...files, { name: source, bytes: mainFile.bytes }]);
  const base = { box, entry, source };
  if (!lang.compile) return { ...base, ok: true, log: '' };
  const { ok, log, result, entry: found } = await compileInBox(sandbox, lang, box, entry, { ...opts, sources: sourcesOf(lang, files, mainFile.name, source) });
  return { ...base, entry: found ?? entry, ok, log, result };
}

/**
 * What the table's `{sources}` stands for: the entry (under the language's file name) first, then
 * every other file with one of the language's extensions; the entry's original, copied under the
 * language's name, is left out so that no unit is compiled twice. Headers are there, not listed.
 */
function sourcesOf(lang: Language, files: ProgramFile[], mainName: string, source: string): string[] {
  const extensions = sourceExtensions(lang);
  const isSource = (n: string) => extensions.has(/\.([^./]+)$/.exec(n)?.[1]?.toLowerCase() ?? '');
  return [source, ...files.map((f) => f.name).filter((n) => n !== source && n !== mainName && isSource(n))];
}

// ---- the output validator ----

/** A built output validator: its directory is /box when it runs. */
export interface BuiltValidator {
  dir: string;
  /** The command at a memory limit. */
  command(memoryBytes: number): LanguageRun;
  /** The build's log (compiler output), for JE messages. */
  log: string;
}

interface BuildRecord {
  kind: 'build-run' | 'language';
  language?: string;
  entry?: string;
  log: string;
}

const RECORD = '.judge-build.json';
const building = new Map<string, Promise<BuiltValidator>>();

/** Thrown when the package's validator does not build: the verdict is JE with this message. */
export class ValidatorBuildError extends Error {
  override readonly name = 'ValidatorBuildError';
  /** True when this runner lacks what the validator needs (another runner may have it), not a fault of the package. */
  constructor(
    message: string,
    readonly infrastructure = false,
  ) {
    super(message);
  }
}

/**
 * The package's output validator, built once in `<buildDir>/validator/` (atomic: built in a box,
 * copied to a temporary directory, renamed into place) and reused by later jobs. Concurrent
 * callers share one build.
 */
export function buildValidator(sandbox: JudgeSandbox, languages: LanguageTable, program: ProgramSource, buildDir: string): Promise<BuiltValidator> {
  const dest = path.join(buildDir, 'validator');
  let pending = building.get(dest);
  if (!pending) {
    // shared by every job that waits for it: one job's cancel must not kill it
    pending = outsideCancel(() => loadOrBuild(sandbox, languages, program, buildDir, dest)).finally(() => building.delete(dest));
    building.set(dest, pending);
  }
  return pending;
}

async function loadOrBuild(sandbox: JudgeSandbox, languages: LanguageTable, program: ProgramSource, buildDir: string, dest: string): Promise<BuiltValidator> {
  const existing = await readRecord(dest);
  if (existing) return validatorFrom(dest, existing, languages);
  const { record, box } = await buildInBox(sandbox, languages, program);
  try {
    await fs.promises.mkdir(buildDir, { recursive: true, mode: 0o700 });
    await fs.promises.chmod(buildDir, 0o700);
    const tmp = path.join(buildDir, `.tmp-${randomBytes(6).toString('hex')}`);
    await fs.promises.cp(box.path, tmp, { recursive: true });
    await fs.promises.writeFile(path.join(tmp, RECORD), JSON.stringify(record));
    await makePrivate(tmp);
    await placeDirectory(tmp, dest);
  } finally {
    await box.dispose();
  }
  return validatorFrom(dest, (await readRecord(dest)) ?? record, languages);
}

async function readRecord(dir: string): Promise<BuildRecord | undefined> {
  try {
    return JSON.parse(await fs.promises.readFile(path.join(dir, RECORD), 'utf8')) as BuildRecord;
  } catch {
    return undefined;
  }
}

function validatorFrom(dir: string, record: BuildRecord, languages: LanguageTable): BuiltValidator {
  if (record.kind === 'build-run') {
    return { dir, log: record.log, command: () => ({ argv: ['/box/run'], env: {}, mounts: [], addressSpaceLimit: false, outOfMemory: [] }) };
  }
  const lang = languages.get(record.language!);
  if (!lang) throw new ValidatorBuildError(`the output validator's language ${record.language} is no longer in the language table`, true);
  return { dir, log: record.log, command: (memoryBytes) => runCommand(lang, { memoryBytes, entry: record.entry }) };
}

async function readProgram(program: ProgramSource): Promise<ProgramFile[]> {
  return Promise.all(program.files.map(async (name) => ({ name, bytes: await fs.promises.readFile(path.join(program.dir, name)) })));
}

const MAIN_NAMES = ['validator', 'output_validator', 'checker', 'check', 'validate', 'main', 'judge', 'interactor'];

/** The file to compile: the language's entry file, else its only source, else one with a usual name, else the first. */
function mainSource(files: string[], lang: Language): string | undefined {
  const entryFile = lang.detect.entryFiles.find((f) => files.includes(f));
  if (entryFile) return entryFile;
  const sources = files.filter((f) => !f.includes('/') && lang.extensions.includes(/\.([^.]+)$/.exec(f)?.[1]?.toLowerCase() ?? ''));
  if (sources.length <= 1) return sources[0];
  const named = sources.find((f) => MAIN_NAMES.includes(f.replace(/\.[^.]+$/, '').toLowerCase()));
  return named ?? sources[0];
}

async function buildInBox(sandbox: JudgeSandbox, languages: LanguageTable, program: ProgramSource): Promise<{ record: BuildRecord; box: Box }> {
  const files = await readProgram(program);
  if (program.language === 'build-run') {
    const box = await sandbox.prepareBox();
    try {
      await writeFiles(box.path, files);
      let log = '';
      const build = path.join(box.path, 'build');
      if (fs.existsSync(build)) {
        await fs.promises.chmod(build, 0o755);
        const logFile = path.join(sandbox.workRoot, `build-${process.pid}-${randomBytes(6).toString('hex')}.log`);
        const fd = fs.openSync(logFile, 'w', 0o600);
        let r: RunResult;
        try {
          r = await sandbox.run({ argv: ['/box/build'], workDir: box.path, writable: true, stdin: 'ignore', stdout: { fd }, stderr: { fd }, stderrKeepBytes: LOG_BYTES, limits: BUILD_LIMITS });
        } finally {
          fs.closeSync(fd);
        }
        log = readHead(logFile, LOG_BYTES);
        fs.rmSync(logFile, { force: true });
        if (r.status !== 'ok') throw new ValidatorBuildError(`the output validator's build script failed (${r.reason ?? r.status})${log ? `:\n${log}` : ''}`);
      }
      const run = path.join(box.path, 'run');
      if (!fs.existsSync(run)) throw new ValidatorBuildError('the output validator has no run script after its build');
      await fs.promises.chmod(run, 0o755);
      return { record: { kind: 'build-run', log }, box };
    } catch (e) {
      await box.dispose();
      throw e;
    }
  }
  const lang = languages.get(program.language);
  if (!lang) throw new ValidatorBuildError(`the output validator is written in ${program.language}, which the language table does not have`, true);
  if (!lang.present) {
    throw new ValidatorBuildError(`the output validator is written in ${lang.name}, which is not installed on this runner (${lang.requires.join(', ')})`, true);
  }
  const main = mainSource(program.files, lang);
  if (!main) throw new ValidatorBuildError(`the output validator has no ${lang.name} source file`);
  const compiled = await compileFiles(sandbox, lang, files, main);
  if (!compiled.ok) {
    await compiled.box.dispose();
    throw new ValidatorBuildError(`the output validator does not compile:\n${compiled.log}`);
  }
  return { record: { kind: 'language', language: lang.id, entry: compiled.entry, log: compiled.log }, box: compiled.box };
}
