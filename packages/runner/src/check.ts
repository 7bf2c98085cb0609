/**
 * `judge-runner check`: can this machine judge? bwrap, the cgroup backend and what it cannot do,
 * every language of the table (its self-test program compiled and run in the sandbox), and the limits actually
 * enforced (a CPU burner, a 1 GiB allocation under 256 MiB, an output flood).
 */
import fs from 'node:fs';
import path from 'node:path';
import { compile, defaultLanguageTable, loadLanguages, runCommand, type Language, type LanguageTable } from './languages.js';
import { Sandbox, type BwrapInfo } from './sandbox/sandbox.js';
import type { BackendKind, Limits, RunStatus } from './sandbox/types.js';

const MiB = 1024 * 1024;

/**
 * The language table's self-test programs (copying stdin to stdout) by language id, from the
 * default table (JUDGE_LANGUAGES, else this checkout's); also used by the runner's tests.
 */
export const HELLO_PROGRAMS: Readonly<Record<string, string>> = selfTests();

function selfTests(): Record<string, string> {
  try {
    return Object.fromEntries([...defaultLanguageTable().languages.values()].flatMap((l) => (l.selfTest ? [[l.id, l.selfTest]] : [])));
  } catch {
    return {}; // a bad table is reported by checkMachine, not at import
  }
}

/** C programs that must hit a limit. */
export const LIMIT_PROGRAMS = {
  cpu: { expected: 'tle' as RunStatus, c: 'int main(void) { volatile unsigned long x = 0; for (;;) x++; }\n' },
  memory: {
    expected: 'mle' as RunStatus,
    c: '#include <stdlib.h>\nint main(void) {\n  size_t n = (size_t)1 << 30;\n  char *p = malloc(n);\n  if (!p) return 1;\n  for (size_t i = 0; i < n; i += 4096) p[i] = 1;\n  return p[4096] - 1;\n}\n',
  },
  output: {
    expected: 'ole' as RunStatus,
    c: '#include <stdio.h>\n#include <string.h>\nint main(void) {\n  static char b[65536];\n  memset(b, \'x\', sizeof b);\n  for (;;) fwrite(b, 1, sizeof b, stdout);\n}\n',
  },
} as const;

export interface CheckOptions {
  /** Use this sandbox (left open) instead of creating one. */
  sandbox?: Sandbox;
  insecureNoCgroup?: boolean;
  workRoot?: string;
  languagesPath?: string;
  table?: LanguageTable;
  /** Check only these language ids. */
  languages?: string[];
  /** Run the limit checks (default true). */
  limits?: boolean;
}

export interface LanguageCheck {
  id: string;
  name: string;
  present: boolean;
  ok: boolean;
  /** Why it is not present (the missing files), or notes of the table. */
  notes?: string;
  compile?: { ok: boolean; status: RunStatus; cpuMs: number; wallMs: number; memoryBytes: number | null; log?: string };
  run?: { status: RunStatus; cpuMs: number; wallMs: number; memoryBytes: number | null; outputOk: boolean; reason?: string };
  error?: string;
}

export interface LimitCheck {
  name: 'cpu' | 'memory' | 'output';
  expected: RunStatus;
  status: RunStatus | null;
  ok: boolean;
  cpuMs?: number;
  wallMs?: number;
  memoryBytes?: number | null;
  stdoutBytes?: number;
  reason?: string;
  error?: string;
}

export interface CheckReport {
  ok: boolean;
  bwrap: { found: boolean; path?: string; version?: string };
  backend: BackendKind | null;
  /** Where the backend keeps its cgroups. */
  cgroups?: string;
  caveats: string[];
  /** Why the machine cannot judge at all (no bwrap, no cgroup without the insecure flag, a bad table). */
  error?: string;
  languages: LanguageCheck[];
  /** The run limits used by the limit checks. */
  limitsUsed?: Limits;
  limits: LimitCheck[];
}

const HELLO_INPUT = 'hello, judge\n42 17\n';

/** Checks this machine; never throws for a machine problem, it reports it. */
export async function checkMachine(opts: CheckOptions = {}): Promise<CheckReport> {
  const report: CheckReport = { ok: false, bwrap: { found: false }, backend: null, caveats: [], languages: [], limits: [] };
  const bw: BwrapInfo | null = opts.sandbox ? opts.sandbox.bwrap : Sandbox.findBwrap();
  if (bw) report.bwrap = { found: true, path: bw.path, version: bw.version };
  let table: LanguageTable;
  try {
    table = opts.table ?? loadLanguages(opts.languagesPath);
  } catch (e) {
    report.error = (e as Error).message;
    return report;
  }
  let sandbox: Sandbox;
  try {
    sandbox = opts.sandbox ?? (await Sandbox.create({ insecureNoCgroup: opts.insecureNoCgroup, workRoot: opts.workRoot }));
  } catch (e) {
    report.error = (e as Error).message;
    for (const l of table.languages.values()) report.languages.push(absent(l));
    return report;
  }
  report.backend = sandbox.backend;
  report.cgroups = sandbox.describeBackend();
  report.caveats = sandbox.caveats();
  const tmp = fs.mkdtempSync(path.join(sandbox.workRoot, 'check-'));
  try {
    for (const lang of table.languages.values()) {
      if (opts.languages && !opts.languages.includes(lang.id)) continue;
      report.languages.push(lang.present ? await checkLanguage(sandbox, lang, tmp) : absent(lang));
    }
    if (opts.limits !== false) report.limits = await checkLimits(sandbox, table, tmp, report);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!opts.sandbox) await sandbox.close();
  }
  report.ok = report.languages.every((l) => !l.present || l.ok) && report.limits.every((l) => l.ok) && report.languages.some((l) => l.ok);
  return report;
}

function absent(l: Language): LanguageCheck {
  const missing = l.requires.filter((r) => !fs.existsSync(r));
  return {
    id: l.id,
    name: l.name,
    present: false,
    ok: false,
    notes: `not present: ${missing.length ? missing.join(', ') : l.requires.join(', ')} missing${l.notes ? ` (${l.notes})` : ''}`,
  };
}

/** Compiles `code` as `lang` in a fresh box under tmp. */
async function build(sandbox: Sandbox, lang: Language, code: string, tmp: string, name: string) {
  const src = fs.mkdtempSync(path.join(tmp, `${name}-src-`));
  fs.writeFileSync(path.join(src, lang.sourceFile.replace('{entry}', lang.entry?.default ?? 'Main')), code);
  return compile(sandbox, lang, src, path.join(tmp, `${name}-out`));
}

async function checkLanguage(sandbox: Sandbox, lang: Language, tmp: string): Promise<LanguageCheck> {
  const res: LanguageCheck = { id: lang.id, name: lang.name, present: true, ok: false, ...(lang.notes ? { notes: lang.notes } : {}) };
  const code = lang.selfTest;
  if (!code) {
    res.error = 'the language table gives this language no selfTest program';
    return res;
  }
  try {
    const c = await build(sandbox, lang, code, tmp, lang.id);
    res.compile = { ok: c.ok, status: c.status, cpuMs: c.cpuMs, wallMs: c.wallMs, memoryBytes: c.memoryBytes, ...(c.ok ? {} : { log: c.log }) };
    if (!c.ok) return res;
    const limits: Limits = { cpuMs: 5000, wallMs: 10000, memoryBytes: 256 * MiB, pids: 64, outputBytes: MiB };
    const input = path.join(tmp, `${lang.id}.in`);
    const output = path.join(tmp, `${lang.id}.out`);
    fs.writeFileSync(input, HELLO_INPUT);
    const r = await sandbox.run({
      ...runCommand(lang, { memoryBytes: limits.memoryBytes, entry: c.entry }),
      workDir: c.dir,
      stdin: { path: input },
      stdout: { path: output },
      stderr: 'ignore',
      limits,
    });
    const outputOk = fs.readFileSync(output, 'utf8') === HELLO_INPUT;
    res.run = { status: r.status, cpuMs: r.cpuMs, wallMs: r.wallMs, memoryBytes: r.memoryBytes, outputOk, ...(r.reason ? { reason: r.reason } : {}) };
    res.ok = r.status === 'ok' && outputOk;
    await c.box.dispose();
  } catch (e) {
    res.error = (e as Error).message;
  }
  return res;
}

async function checkLimits(sandbox: Sandbox, table: LanguageTable, tmp: string, report: CheckReport): Promise<LimitCheck[]> {
  const c = table.get('c');
  const out: LimitCheck[] = [];
  const limits: Limits = { cpuMs: 1000, wallMs: 3000, memoryBytes: 256 * MiB, pids: 64, outputBytes: MiB };
  report.limitsUsed = limits;
  for (const [name, p] of Object.entries(LIMIT_PROGRAMS) as [LimitCheck['name'], (typeof LIMIT_PROGRAMS)[keyof typeof LIMIT_PROGRAMS]][]) {
    if (!c?.present) {
      out.push({ name, expected: p.expected, status: null, ok: false, error: 'the limit checks need the c language (gcc)' });
      continue;
    }
    try {
      const b = await build(sandbox, c, p.c, tmp, `limit-${name}`);
      if (!b.ok) {
        out.push({ name, expected: p.expected, status: null, ok: false, error: `does not compile: ${b.log}` });
        continue;
      }
      const r = await sandbox.run({
        ...runCommand(c, { memoryBytes: limits.memoryBytes }),
        workDir: b.dir,
        stdin: 'ignore',
        stdout: { path: path.join(tmp, `limit-${name}.out`) },
        stderr: 'ignore',
        limits,
      });
      out.push({
        name,
        expected: p.expected,
        status: r.status,
        ok: r.status === p.expected,
        cpuMs: r.cpuMs,
        wallMs: r.wallMs,
        memoryBytes: r.memoryBytes,
        stdoutBytes: r.stdoutBytes,
        ...(r.reason ? { reason: r.reason } : {}),
      });
      await b.box.dispose();
    } catch (e) {
      out.push({ name, expected: p.expected, status: null, ok: false, error: (e as Error).message });
    }
  }
  return out;
}
