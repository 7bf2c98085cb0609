/**
 * The language table (config/languages.json, its schema in @judge/problem-package): how each ICPC
 * language id is compiled and run in the sandbox, how a package's program in it is recognised, and
 * the self-test program `check` runs. Adding a language is an edit of the table, not of code.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extensionIndex, readLanguageTableFile, type CompileLimitsInput } from '@judge/problem-package';
import { codeOnly } from './compile/code-text.js';
import { findMainClass } from './jvm-main.js';
import type { Box, Sandbox } from './sandbox/sandbox.js';
import type { Limits, Mount, RunResult, RunSpec, RunStatus } from './sandbox/types.js';

const MiB = 1024 * 1024;

export interface Language {
  /** ICPC language id (`cpp`, `python3`, ...). */
  id: string;
  name: string;
  extensions: string[];
  /** File name of the source in /box; may hold `{entry}` (Java: `{entry}.java`). */
  sourceFile: string;
  /** File the compiler writes (`main`), for `{binary}`. */
  binary?: string;
  /**
   * The entry point: `pattern` finds it in the source (Java's public class, which names the source
   * file), else `default`; with `discover: jvm-main-class` the class to run is found after
   * compiling among the class files (the one with main, package-qualified), as DOMjudge does.
   */
  entry?: { default: string; pattern?: string; discover?: 'jvm-main-class' };
  compiled: boolean;
  /** Every file in `requires` exists on this machine. */
  present: boolean;
  requires: string[];
  notes?: string;
  compile?: { argv: string[]; env: Record<string, string>; limits: Limits };
  run: { argv: string[]; env: Record<string, string> };
  /** Prints the compiler's version: part of the compile cache's key (compile/fingerprint.ts). */
  version?: string[];
  /** Headers g++ gets precompiled for a source that includes them (compile/pch.ts). */
  pch: string[];
  heap?: { fraction: number; reserveMiB: number; minMiB: number };
  addressSpaceLimit: boolean;
  /** RLIMIT_NOFILE of its compiler and programs, where the default (64) is too low for it. */
  openFiles?: number;
  outOfMemory: { exitCode: number; stderr: string }[];
  mounts: Mount[];
  /** How a package's program directory is recognised as this language. */
  detect: { precedence?: number; headers: string[]; entryFiles: string[]; mainPattern?: string; libraryPattern?: string; claims: Record<string, string> };
  /** A program copying stdin to stdout, for `judge-runner check`. */
  selfTest?: string;
}

export interface LanguageTable {
  /** The file it was read from. */
  path: string;
  languages: Map<string, Language>;
  get(id: string): Language | undefined;
  /** The languages whose toolchain is installed. */
  present(): Language[];
  /** The language of a file extension (without the dot, any case). */
  byExtension(ext: string): Language | undefined;
}

/** config/languages.json of this checkout (packages/runner/{src,dist}/ → ../../../config). */
export function defaultLanguagesPath(): string {
  return fileURLToPath(new URL('../../../config/languages.json', import.meta.url));
}

/** Reads and validates the table; a bad table throws with every problem named. */
export function loadLanguages(file: string = process.env.JUDGE_LANGUAGES ?? defaultLanguagesPath()): LanguageTable {
  const t = readLanguageTableFile(file);
  const limits = (over?: Partial<CompileLimitsInput>): Limits => {
    const l = { ...t.compileLimits, ...over };
    return { cpuMs: l.cpuMs, wallMs: l.wallMs, memoryBytes: l.memoryMiB * MiB, pids: l.pids, outputBytes: l.outputMiB * MiB };
  };
  const languages = new Map<string, Language>();
  for (const [id, l] of Object.entries(t.languages)) {
    languages.set(id, {
      id,
      name: l.name,
      extensions: l.extensions.map((e) => e.toLowerCase()),
      sourceFile: l.sourceFile,
      ...(l.binary ? { binary: l.binary } : {}),
      ...(l.entry ? { entry: l.entry } : {}),
      compiled: l.compiled,
      present: l.requires.every((r) => isPresent(r)),
      requires: l.requires,
      ...(l.notes ? { notes: l.notes } : {}),
      ...(l.compile ? { compile: { argv: l.compile.argv, env: l.compile.env ?? {}, limits: limits(l.compile.limits) } } : {}),
      run: { argv: l.run.argv, env: l.run.env ?? {} },
      ...(l.version ? { version: l.version } : {}),
      pch: l.pch,
      ...(l.heap ? { heap: l.heap } : {}),
      addressSpaceLimit: l.addressSpaceLimit,
      ...(l.openFiles !== undefined ? { openFiles: l.openFiles } : {}),
      outOfMemory: l.outOfMemory,
      mounts: l.mounts.map((m) => ({ host: m.host, box: m.box })),
      detect: { headers: l.detect.headers.map((h) => h.toLowerCase()), entryFiles: l.detect.entryFiles,
        ...(l.detect.mainPattern ? { mainPattern: l.detect.mainPattern } : {}),
        ...(l.detect.libraryPattern ? { libraryPattern: l.detect.libraryPattern } : {}),
        claims: l.detect.claims,
        ...(l.detect.precedence !== undefined ? { precedence: l.detect.precedence } : {}) },
      ...(l.selfTest ? { selfTest: l.selfTest } : {}),
    });
  }
  const byExt = new Map([...extensionIndex(t, file)].map(([ext, id]) => [ext, languages.get(id)!]));
  return {
    path: file,
    languages,
    get: (id) => languages.get(id),
    present: () => [...languages.values()].filter((l) => l.present),
    byExtension: (ext) => byExt.get(ext.replace(/^\./, '').toLowerCase()),
  };
}

const defaults = new Map<string, LanguageTable>();

/** The table at JUDGE_LANGUAGES, else this checkout's, read once: for callers given no table. */
export function defaultLanguageTable(): LanguageTable {
  const file = process.env.JUDGE_LANGUAGES ?? defaultLanguagesPath();
  let table = defaults.get(file);
  if (!table) {
    table = loadLanguages(file);
    defaults.set(file, table);
  }
  return table;
}

/** A required program (in a bin directory) must be executable, any other file (a runtime jar) readable. */
export function isPresent(p: string): boolean {
  try {
    fs.accessSync(p, /\/s?bin\//.test(p) ? fs.constants.X_OK : fs.constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The language of a submission: `props.language` when it names one, else the table's language of
 * the file extension. Undefined when unknown or when the named language is not in the table.
 */
export function pickLanguage(table: LanguageTable, fileName: string, props?: Record<string, unknown> | null): Language | undefined {
  const named = props?.language;
  if (typeof named === 'string' && named) return table.get(named);
  const ext = /\.([^./]+)$/.exec(fileName)?.[1]?.toLowerCase();
  if (!ext) return undefined;
  return table.byExtension(ext);
}

/** The heap a runtime gets under a memory limit (Java -Xmx, node --max-old-space-size). */
export function heapMiB(lang: Language, memoryBytes: number): number {
  const mem = Math.floor(memoryBytes / MiB);
  const h = lang.heap;
  if (!h) return mem;
  return Math.max(h.minMiB, Math.floor(Math.min(mem * h.fraction, mem - h.reserveMiB)));
}

/** The file name the table's commands use for a source with this entry point (Main.java, main.cpp). */
export function sourceName(lang: Language, entry: string): string {
  return vars(lang, 0, entry).source!;
}

/** A language's source extensions: its own, and its source file's (a variant named by props.language: pypy3's .py). */
export function sourceExtensions(lang: Language): Set<string> {
  const own = /\.([^./]+)$/.exec(lang.sourceFile)?.[1]?.toLowerCase();
  return new Set([...lang.extensions, ...(own ? [own] : [])]);
}

/**
 * The entry point a source declares (Java's public class), else the language's default. The
 * pattern is matched against the code alone, comments and strings blanked (compile/code-text.ts):
 * "public class names" in a comment names no class.
 */
export function entryOf(lang: Language, code: Uint8Array): string {
  if (lang.entry?.pattern) {
    const m = new RegExp(lang.entry.pattern).exec(codeOnly(Buffer.from(code).toString('utf8')));
    if (m?.[1]) return m[1];
  }
  return lang.entry?.default ?? 'main';
}

/**
 * The table's argv with its placeholders filled; an argument that is exactly `{sources}` becomes
 * every source of the program (the entry's first), or `{source}` alone when none are listed.
 */
function fill(argv: string[], vars: Record<string, string>, sources?: readonly string[]): string[] {
  return argv.flatMap((a) => (a === '{sources}' ? (sources?.length ? [...sources] : [vars.source!]) : [a.replace(/\{(\w+)\}/g, (m, k: string) => vars[k] ?? m)]));
}

function vars(lang: Language, memoryBytes: number, entry?: string): Record<string, string> {
  const e = entry ?? lang.entry?.default ?? 'main';
  return {
    source: lang.sourceFile.replace(/\{entry\}/g, e),
    binary: lang.binary ?? 'main',
    entry: e,
    memoryMiB: String(Math.floor(memoryBytes / MiB)),
    heapMiB: String(heapMiB(lang, memoryBytes)),
    box: '/box',
  };
}

/** What a RunSpec needs from the language to run a compiled submission (the caller adds workDir, stdio, limits). */
export type LanguageRun = Required<Pick<RunSpec, 'argv' | 'env' | 'mounts' | 'addressSpaceLimit' | 'outOfMemory'>> & Pick<RunSpec, 'openFiles'>;

/** Whether the run command names the source (an interpreter's): the program sees the file's name (`sys.argv[0]`). */
export function runsSource(lang: Language): boolean {
  return lang.run.argv.some((a) => a.includes('{source}'));
}

/**
 * The command that runs a submission under `memoryBytes` (entry: CompileResult.entry); `source`
 * is the file `{source}` stands for when the program runs under its submitted name.
 */
export function runCommand(lang: Language, opts: { memoryBytes: number; entry?: string; source?: string }): LanguageRun {
  const v = vars(lang, opts.memoryBytes, opts.entry);
  return {
    argv: fill(lang.run.argv, opts.source ? { ...v, source: opts.source } : v),
    env: { ...lang.run.env },
    mounts: lang.mounts,
    addressSpaceLimit: lang.addressSpaceLimit,
    outOfMemory: lang.outOfMemory,
    ...(lang.openFiles !== undefined ? { openFiles: lang.openFiles } : {}),
  };
}

export interface CompileResult {
  /** The program is ready in `dir`. */
  ok: boolean;
  /** Compiler output (stdout and stderr interleaved, at most 64 KiB), or why it failed. */
  log: string;
  /** The box holding the source and what the compiler wrote (= outDir); run it from there. */
  dir: string;
  box: Box;
  /** The source file name in `dir`. */
  source: string;
  /** The entry point (Java's main class, package-qualified) to pass to runCommand. */
  entry: string;
  status: RunStatus;
  exitCode: number | null;
  cpuMs: number;
  wallMs: number;
  memoryBytes: number | null;
}

const LOG_BYTES = 64 * 1024;

/** The one source file in sourceDir: the language's own file name, else the only file with one of its extensions, else the only file. */
function findSource(lang: Language, sourceDir: string): string {
  const files = fs.readdirSync(sourceDir, { withFileTypes: true }).filter((d) => d.isFile()).map((d) => d.name);
  const exact = lang.sourceFile.includes('{entry}') ? undefined : files.find((f) => f === lang.sourceFile);
  if (exact) return exact;
  const matching = files.filter((f) => lang.extensions.includes(/\.([^.]+)$/.exec(f)?.[1]?.toLowerCase() ?? ''));
  if (matching.length === 1) return matching[0]!;
  if (files.length === 1) return files[0]!;
  throw new Error(`${sourceDir}: expected one ${lang.id} source file, found ${files.length ? files.join(', ') : 'none'}`);
}

/**
 * Compiles the source in sourceDir into outDir (a fresh box: removed first if it exists) in the
 * sandbox with the table's compile limits. The source is copied in under the language's file name;
 * interpreted languages get their syntax check, if any. A compilation error is `ok: false` with the
 * compiler's output as `log`. The caller disposes `box` when done.
 */
export async function compile(
  sandbox: Sandbox,
  lang: Language,
  sourceDir: string,
  outDir: string,
  opts: { limits?: Partial<Limits> } = {},
): Promise<CompileResult> {
  if (path.resolve(sourceDir) === path.resolve(outDir)) throw new Error('compile: outDir must differ from sourceDir');
  const srcName = findSource(lang, sourceDir);
  const code = fs.readFileSync(path.join(sourceDir, srcName));
  const entry = entryOf(lang, code);
  const box = await sandbox.prepareBox(outDir);
  const source = sourceName(lang, entry);
  fs.writeFileSync(path.join(box.path, source), code, { mode: 0o644 });
  const base = { dir: box.path, box, source, entry };
  if (!lang.compile) {
    return { ...base, ok: true, log: '', status: 'ok', exitCode: 0, cpuMs: 0, wallMs: 0, memoryBytes: null };
  }
  const { ok, log, result: r, entry: found } = await compileInBox(sandbox, lang, box, entry, opts);
  return { ...base, entry: found ?? entry, ok, log, status: r.status, exitCode: r.exitCode, cpuMs: r.cpuMs, wallMs: r.wallMs, memoryBytes: r.memoryBytes };
}

/**
 * Runs the language's compile command in a box that already holds the sources, with the table's
 * compile limits (the compiler's own, apart from the program's: a large static array needs a
 * large object file): `ok` when it succeeded and wrote what the language runs; `log` is the
 * compiler's output (at most 64 KiB) and why it stopped when a limit did; `entry` the main class
 * found, for languages that discover it.
 */
export async function compileInBox(
  sandbox: Pick<Sandbox, 'run' | 'workRoot'>,
  lang: Language,
  box: Box,
  entry: string,
  opts: { limits?: Partial<Limits>; sources?: readonly string[] } = {},
): Promise<{ ok: boolean; log: string; result: RunResult; entry?: string }> {
  if (!lang.compile) throw new Error(`${lang.id} is not compiled`);
  const limits: Limits = { ...lang.compile.limits, ...opts.limits };
  const logFile = path.join(sandbox.workRoot, `compile-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.log`);
  const fd = fs.openSync(logFile, 'w', 0o600);
  let r: RunResult;
  try {
    r = await sandbox.run({
      argv: fill(lang.compile.argv, vars(lang, limits.memoryBytes, entry), opts.sources),
      workDir: box.path,
      writable: true,
      mounts: lang.mounts,
      stdin: 'ignore',
      stdout: { fd },
      stderr: { fd },
      stderrKeepBytes: LOG_BYTES,
      env: lang.compile.env,
      limits,
      addressSpaceLimit: lang.addressSpaceLimit,
      ...(lang.openFiles !== undefined ? { openFiles: lang.openFiles } : {}),
    });
  } finally {
    fs.closeSync(fd);
  }
  let log = readHead(logFile, LOG_BYTES);
  fs.rmSync(logFile, { force: true });
  let ok = r.status === 'ok';
  if (ok && lang.compiled && lang.binary && !fs.existsSync(path.join(box.path, lang.binary))) {
    ok = false;
    log += `\n(the compiler wrote no ${lang.binary})`;
  }
  let found: string | undefined;
  if (ok && lang.entry?.discover === 'jvm-main-class') {
    const main = findMainClass(box.path, [entry, lang.entry.default]);
    log = `${log}${log && !log.endsWith('\n') ? '\n' : ''}${main.notes.join('\n')}\n`;
    ok = main.name !== undefined;
    found = main.name;
  }
  if (r.status !== 'ok' && r.status !== 're') {
    const what: Record<string, string> = {
      tle: `compilation used more than ${limits.cpuMs} ms of CPU time`,
      wall: `compilation took longer than ${limits.wallMs} ms`,
      mle: `compilation ran out of memory (${Math.round(limits.memoryBytes / MiB)} MiB)`,
      ole: `compilation wrote more than ${Math.round(limits.outputBytes / MiB)} MiB`,
    };
    log = `${log}${log && !log.endsWith('\n') ? '\n' : ''}${what[r.status]}\n`;
  }
  return { ok, log, result: r, ...(found ? { entry: found } : {}) };
}

/** The start of a text file, at most `max` bytes, saying how much was left out. */
export function readHead(file: string, max: number): string {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buf = Buffer.alloc(Math.min(size, max));
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString('utf8');
    return size > max ? `${text}\n… (${size - max} more bytes of compiler output)\n` : text;
  } finally {
    fs.closeSync(fd);
  }
}
