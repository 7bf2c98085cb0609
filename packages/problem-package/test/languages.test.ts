import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectProgramLanguage, extensionIndex, languageOfFile, readLanguageTableFile, type DetectableLanguage } from '@judge/problem-package';

/** The language table's schema, its extension index, and how package programs are recognised by it. */

const dir = mkdtempSync(join(tmpdir(), 'language-table-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lang = (id: string, extensions: string[], detect: Partial<DetectableLanguage['detect']> = {}): DetectableLanguage => ({
  id,
  extensions,
  detect: { headers: [], entryFiles: [], ...detect },
});
const LANGS = [
  lang('c', ['c'], { precedence: 2, headers: ['h'] }),
  lang('cpp', ['cpp', 'cc'], { precedence: 3, headers: ['hpp'] }),
  lang('python3', ['py'], { precedence: 1, entryFiles: ['__main__.py'] }),
  lang('java', ['java']),
  lang('kotlin', ['kt']),
];

describe('detectProgramLanguage', () => {
  it('build or run scripts first, then precedence, then the one language of all sources', () => {
    expect(detectProgramLanguage(['build', 'x.c'], LANGS)).toBe('build-run');
    expect(detectProgramLanguage(['a.c', 'b.cc', 'c.h'], LANGS)).toBe('cpp');
    expect(detectProgramLanguage(['a.c', 'lib.py'], LANGS)).toBe('c');
    expect(detectProgramLanguage(['__main__.py', 'helper/x.txt'], LANGS)).toBe('python3');
    expect(detectProgramLanguage(['Main.java', 'README.md', 'x.hpp'], LANGS)).toBe('java');
    expect(detectProgramLanguage(['Main.java', 'a.kt'], LANGS)).toBeUndefined();
    expect(detectProgramLanguage(['notes.txt'], LANGS)).toBeUndefined();
  });
});

describe('the table file', () => {
  const table = (languages: Record<string, unknown>) => {
    const file = join(dir, `t${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify({ compileLimits: { cpuMs: 1, wallMs: 1, memoryMiB: 1, pids: 1, outputMiB: 1 }, languages }));
    return file;
  };
  const sh = { name: 'sh', extensions: ['sh'], sourceFile: 'main.sh', compiled: false, requires: ['/bin/sh'], run: { argv: ['/bin/sh', '{source}'] } };

  it('gives every language detection defaults and keeps its self-test program', () => {
    const t = readLanguageTableFile(table({ sh: { ...sh, selfTest: 'cat\n' } }));
    expect(t.languages.sh).toMatchObject({ detect: { headers: [], entryFiles: [] }, selfTest: 'cat\n', outOfMemory: [], mounts: [] });
  });

  it('indexes extensions for the server: props.language first, then the extension in any case', () => {
    const index = extensionIndex(readLanguageTableFile(table({ sh: { ...sh, extensions: ['sh', 'BASH'] } })));
    expect(languageOfFile(index, 'run.SH')).toBe('sh');
    expect(languageOfFile(index, 'run.bash')).toBe('sh');
    expect(languageOfFile(index, 'x.txt', { language: 'c' })).toBe('c');
    expect(languageOfFile(index, 'x.txt')).toBeUndefined();
  });

  it('refuses a bad detect rule or self-test, naming the key', () => {
    expect(() => readLanguageTableFile(table({ sh: { ...sh, detect: { headers: ['.h'] } } }))).toThrow(/languages\.sh\.detect\.headers/);
    expect(() => readLanguageTableFile(table({ sh: { ...sh, selfTest: '' } }))).toThrow(/languages\.sh\.selfTest/);
    expect(() => readLanguageTableFile(table({ a: sh, b: sh }))).toThrow(/\.sh belongs to both a and b/);
  });
});
