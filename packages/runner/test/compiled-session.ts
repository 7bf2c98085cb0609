/**
 * What the sandbox session tests share: a C program compiled in the real sandbox (bwrap, cgroups,
 * compiler), a session of it open for the file's tests, and the files of each test. Set up before
 * the tests of the `describe` that calls it and closed after them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { Sandbox, compile, loadLanguages, type CompileResult, type Limits, type Session } from '@judge/runner';

export const MiB = 1024 * 1024;
const c = loadLanguages().get('c');
/** The real sandbox needs bwrap, a C compiler and root (each slot runs as a uid of its own). */
export const SANDBOX_USABLE = Sandbox.findBwrap() !== null && c?.present === true && process.geteuid?.() === 0;

/** The files of one test: its input written, where its output and errors go. */
export interface TestFiles {
  io: { stdin: { path: string }; stdout: { path: string }; stderr: { path: string } };
  /** What the test printed so far ('' when it wrote nothing). */
  out(): string;
}

export interface CompiledSession {
  sandbox: Sandbox;
  /** The temporary directory the work, the program and the tests' files are in. */
  tmp: string;
  built: CompileResult;
  session: Session;
  /** Writes the next test's input and names its files (numbered, so that no test reads another's output). */
  nextTest(input: string): TestFiles;
}

/** Compiles `program` (main.c) as slot uid `uidBase` and opens a session of it with `limits`; call inside a describe. */
export function useCompiledSession(o: { tmpPrefix: string; program: string; uidBase: number; limits: Limits }): CompiledSession {
  let seq = 0;
  const s = {
    nextTest(input: string): TestFiles {
      const n = ++seq;
      const inFile = path.join(s.tmp, `in-${n}`);
      const outFile = path.join(s.tmp, `out-${n}`);
      fs.writeFileSync(inFile, input);
      return {
        io: { stdin: { path: inFile }, stdout: { path: outFile }, stderr: { path: path.join(s.tmp, `err-${n}`) } },
        out: () => (fs.existsSync(outFile) ? fs.readFileSync(outFile, 'utf8') : ''),
      };
    },
  } as CompiledSession;

  beforeAll(async () => {
    s.tmp = fs.mkdtempSync(path.join(os.tmpdir(), o.tmpPrefix));
    // the slot uid reads the compiled program below it
    fs.chmodSync(s.tmp, 0o755);
    s.sandbox = await Sandbox.create({ workRoot: path.join(s.tmp, 'work'), uidBase: o.uidBase });
    const src = path.join(s.tmp, 'src');
    fs.mkdirSync(src);
    fs.writeFileSync(path.join(src, 'main.c'), o.program);
    s.built = await compile(s.sandbox, c!, src, path.join(s.tmp, 'bin'));
    if (!s.built.ok) throw new Error(s.built.log);
    s.session = s.sandbox.openSession({ argv: ['/box/main'], workDir: s.built.dir, limits: o.limits });
  }, 60_000);
  afterAll(async () => {
    await s.session?.close();
    await s.sandbox?.close();
    if (s.tmp) fs.rmSync(s.tmp, { recursive: true, force: true });
  });
  return s;
}
