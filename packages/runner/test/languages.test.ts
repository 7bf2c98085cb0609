/** The language table: loading, validation, choosing a language, commands (no sandbox needed). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { detectProgramLanguage, extensionIndex, fileLanguage, readLanguageTableFile } from '@judge/problem-package';
import { afterAll, describe, expect, it } from 'vitest';
import { heapMiB, loadLanguages, pickLanguage, runCommand } from '@judge/runner';

const MiB = 1024 * 1024;
const table = loadLanguages();
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function tableFile(content: unknown): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'judge-lang-'));
  dirs.push(dir);
  const file = path.join(dir, 'languages.json');
  fs.writeFileSync(file, JSON.stringify(content));
  return file;
}

describe('language table', () => {
  it('names the ICPC languages and their extensions, the same for the server as for the runner', () => {
    const EXTENSIONS: Record<string, string> = {
      c: 'c', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', 'c++': 'cpp', py: 'python3', java: 'java', js: 'javascript', mjs: 'javascript', kt: 'kotlin', rs: 'rust', go: 'go',
      ts: 'typescript', cs: 'csharp', hs: 'haskell', ml: 'ocaml', rb: 'ruby', php: 'php', pas: 'pascal', pp: 'pascal',
      f90: 'fortran', f95: 'fortran', f03: 'fortran', f08: 'fortran', f: 'fortran', scala: 'scala', sc: 'scala', lisp: 'lisp', cl: 'lisp',
      plg: 'prolog', pro: 'prolog', prolog: 'prolog', lua: 'lua', pl: 'perl', pm: 'perl', sh: 'bash', bash: 'bash', adb: 'ada', ada: 'ada', d: 'd', r: 'r',
    };
    expect([...table.languages.keys()].sort()).toEqual([
      'ada', 'bash', 'c', 'cpp', 'cpp17', 'csharp', 'd', 'fortran', 'go', 'haskell', 'java', 'javascript', 'kotlin', 'lisp', 'lua', 'ocaml',
      'pascal', 'perl', 'php', 'prolog', 'pypy3', 'python3', 'r', 'ruby', 'rust', 'scala', 'typescript',
    ]);
    // variants chosen by props.language only: the extension stays the main language's
    expect(table.get('pypy3')!.extensions).toEqual([]);
    expect(table.get('cpp17')!.extensions).toEqual([]);
    for (const [ext, id] of Object.entries(EXTENSIONS)) expect(table.byExtension(ext)?.id, ext).toBe(id);
    for (const l of table.languages.values()) for (const ext of l.extensions) expect(EXTENSIONS[ext], ext).toBe(l.id);
    // the server's index (by which it records a submission's language) is read from the same file
    expect(Object.fromEntries(extensionIndex(readLanguageTableFile(table.path)))).toEqual(EXTENSIONS);
  });

  it('runs Python from /usr/bin, never a pyenv shim on PATH', () => {
    const py = table.get('python3')!;
    expect(py.requires).toEqual(['/usr/bin/python3']);
    expect(py.run.argv[0]).toBe('/usr/bin/python3');
    expect(py.present).toBe(fs.existsSync('/usr/bin/python3'));
  });

  it('marks a language present only when its toolchain is under the paths it requires', () => {
    for (const l of table.languages.values()) expect(l.present, l.id).toBe(l.requires.every((r) => fs.existsSync(r)));
    expect(table.present().every((l) => l.present)).toBe(true);
  });

  it('picks props.language first, then the extension', () => {
    expect(pickLanguage(table, 'a.cc')?.id).toBe('cpp');
    expect(pickLanguage(table, 'Solution.JAVA')?.id).toBe('java');
    expect(pickLanguage(table, 'x.py', { language: 'python3' })?.id).toBe('python3');
    expect(pickLanguage(table, 'x.txt', { language: 'c' })?.id).toBe('c');
    expect(pickLanguage(table, 'x.c', { language: 'cobol' })).toBeUndefined();
    expect(pickLanguage(table, 'x.txt')).toBeUndefined();
    expect(pickLanguage(table, 'noextension')).toBeUndefined();
  });

  it('sizes heaps with headroom below the memory limit', () => {
    const java = table.get('java')!;
    const js = table.get('javascript')!;
    expect(heapMiB(java, 256 * MiB)).toBe(179); // min(70 %, L − 64)
    expect(heapMiB(java, 1024 * MiB)).toBe(716);
    expect(heapMiB(js, 256 * MiB)).toBe(192);
    expect(heapMiB(java, 40 * MiB)).toBe(32); // never below minMiB
    const cmd = runCommand(java, { memoryBytes: 256 * MiB, entry: 'Solution' });
    expect(cmd.argv).toContain('-Xmx179m');
    expect(cmd.argv.at(-1)).toBe('Solution');
    expect(cmd.addressSpaceLimit).toBe(false);
    expect(cmd.outOfMemory[0]).toMatchObject({ exitCode: 3 });
    expect(runCommand(js, { memoryBytes: 256 * MiB }).argv).toContain('--max-old-space-size=192');
    expect(runCommand(table.get('c')!, { memoryBytes: 256 * MiB })).toMatchObject({ argv: ['/box/main'], addressSpaceLimit: true });
  });

  it('refuses a malformed table, naming every problem', () => {
    const file = tableFile({
      compileLimits: { cpuMs: 1000, wallMs: 1000, memoryMiB: 64, pids: 8, outputMiB: 1 },
      languages: {
        c: { name: 'C', extensions: ['.c'], sourceFile: 'main.c', compiled: true, requires: ['gcc'], run: { argv: [] } },
        x: { name: 'X', extensions: ['x'], sourceFile: 'a/b', compiled: false, requires: ['/bin/x'], run: { argv: ['x'] }, surprise: 1 },
      },
    });
    let message = '';
    try {
      loadLanguages(file);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/languages\.c\.extensions/);
    expect(message).toMatch(/languages\.c\.requires/);
    expect(message).toMatch(/languages\.c\.run\.argv/);
    expect(message).toMatch(/languages\.x\.sourceFile/);
    expect(message).toMatch(/surprise/);
    expect(() => loadLanguages(path.join(os.tmpdir(), 'no-such-languages.json'))).toThrow(/no-such-languages/);
  });

  it('refuses an extension claimed by two languages', () => {
    const lang = (ext: string) => ({ name: ext, extensions: [ext, 'h'], sourceFile: 'main', compiled: false, requires: ['/bin/sh'], run: { argv: ['/bin/sh'] } });
    const file = tableFile({ compileLimits: { cpuMs: 1, wallMs: 1, memoryMiB: 1, pids: 1, outputMiB: 1 }, languages: { a: lang('a'), b: lang('b') } });
    expect(() => loadLanguages(file)).toThrow(/\.h belongs to both a and b/);
  });
});

describe('language table: what check and the package reader take from it', () => {
  it('gives every language a self-test program, and the package programs their detection rules', () => {
    for (const l of table.languages.values()) expect(l.selfTest, l.id).toBeTruthy();
    expect(table.get('cpp')!.detect.precedence).toBeGreaterThan(table.get('c')!.detect.precedence!);
    expect(table.get('python3')!.detect.entryFiles).toEqual(['__main__.py']);
  });
});

describe('a package program in .pl: Perl by its extension, Prolog by its code', () => {
  const table = loadLanguages();
  const langs = () => table.languages.values();
  const code: Record<string, string> = {
    'solve.pl': 'main :- read_term(X, []), add(X, 1, Y), writeln(Y).\n',
    'helper.pl': '% adds\nadd(A, B, C) :- C is A + B.\n',
    'perl.pl': '#!/usr/bin/perl\nuse strict;\nmy $x = <STDIN>;\nprint $x ? 1 :-1;\n',
    'init.pl': ':- initialization(main).\nmain :- halt.\n',
  };
  const read = (f: string) => code[f];

  it('a directory of Prolog clauses is Prolog, a Perl script stays Perl', () => {
    expect(detectProgramLanguage(['solve.pl', 'helper.pl'], langs(), read)).toBe('prolog');
    expect(fileLanguage('init.pl', langs(), read)).toBe('prolog');
    expect(fileLanguage('perl.pl', langs(), read)).toBe('perl');
    expect(detectProgramLanguage(['perl.pl'], langs(), read)).toBe('perl');
    // without the code, the extension decides
    expect(fileLanguage('solve.pl', langs())).toBe('perl');
  });
});
