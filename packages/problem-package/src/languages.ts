import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { DOC_FILE } from './layout.js';

/**
 * The language table (config/languages.json) is the one place a language is described: its file
 * extensions, how it is compiled and run in the sandbox, how a package's program in it is
 * recognised, and the program `judge-runner check` tries it with. The server learns extensions
 * from it, the runner everything else; adding a language is one entry here and nothing else.
 */

const LimitsInput = z
  .object({
    cpuMs: z.number().int().positive(),
    wallMs: z.number().int().positive(),
    memoryMiB: z.number().int().positive(),
    pids: z.number().int().positive(),
    outputMiB: z.number().int().positive(),
  })
  .strict();

const Argv = z.array(z.string()).min(1);
const Env = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string());
const Extension = z.string().regex(/^[^./]+$/, 'an extension without the dot');
const RegExpText = z.string().refine((s) => {
  try {
    new RegExp(s);
    return true;
  } catch {
    return false;
  }
}, 'not a regular expression');

/** How a program directory of a package (a validator, an example submission) is recognised as this language. */
const DetectInput = z
  .object({
    /** Languages with a precedence win over the rest, highest first, as soon as one of their files is there (C++ before C). */
    precedence: z.number().int().optional(),
    /** Extensions of files that accompany sources but say nothing of the language (headers). */
    headers: z.array(Extension).default([]),
    /** Top-level files that make a directory a program of this language and are its main source (`__main__.py`). */
    entryFiles: z.array(z.string().regex(/^[^/]+$/, 'a file name')).default([]),
    /**
     * Of several submitted sources, the one holding the entry point matches this (multiline) regular
     * expression: Python's `if __name__ == "__main__":`, C's `int main(`.
     */
    mainPattern: RegExpText.optional(),
    /** Sources matching this (multiline) regular expression are never the entry: Pascal's `unit Name;`. */
    libraryPattern: RegExpText.optional(),
    /**
     * Extensions another language owns whose files are this language's when their code matches the
     * (multiline) regular expression: Prolog's `.pl`, Perl's by extension, told apart by a clause.
     */
    claims: z.record(Extension, RegExpText).default({}),
  })
  .strict();

export const LanguageEntry = z
  .object({
    name: z.string().min(1),
    /** Empty for a variant chosen only by `props.language` (pypy3 beside python3's `.py`). */
    extensions: z.array(Extension),
    sourceFile: z.string().regex(/^[^/]+$/, 'a file name'),
    binary: z.string().regex(/^[^/]+$/, 'a file name').optional(),
    entry: z
      .object({ default: z.string().min(1), pattern: z.string().optional(), discover: z.literal('jvm-main-class').optional() })
      .strict()
      .optional(),
    compiled: z.boolean(),
    requires: z.array(z.string().startsWith('/')).min(1),
    /** The Debian packages that bring `requires` (`judge-runner languages install`). */
    debianPackages: z.array(z.string().regex(/^[a-z0-9][a-z0-9+.-]+$/, 'a Debian package name')).default([]),
    notes: z.string().optional(),
    compile: z
      .object({ argv: Argv, env: Env.optional(), limits: LimitsInput.partial().optional() })
      .strict()
      .optional(),
    run: z.object({ argv: Argv, env: Env.optional() }).strict(),
    /**
     * Prints the compiler's version (run once per runner in the sandbox): part of the compile cache's
     * key, with the compiler binary's path, size and time, so that an upgrade recompiles.
     */
    version: Argv.optional(),
    /**
     * Headers (as included: `bits/stdc++.h`) precompiled once per runner and compile flags, for a
     * GCC-style compiler (`-x c++-header`, `.gch` found in an `-I` directory): a source including
     * one compiles against it.
     */
    pch: z.array(z.string().regex(/^[A-Za-z0-9_+.-]+(\/[A-Za-z0-9_+.-]+)*$/, 'a header path as included')).default([]),
    heap: z
      .object({ fraction: z.number().positive().max(1), reserveMiB: z.number().nonnegative(), minMiB: z.number().positive() })
      .strict()
      .optional(),
    addressSpaceLimit: z.boolean().default(false),
    /** RLIMIT_NOFILE of its compiler and its programs (default 64; R refuses to start below 256). */
    openFiles: z.number().int().min(16).max(4096).optional(),
    outOfMemory: z.array(z.object({ exitCode: z.number().int(), stderr: RegExpText }).strict()).default([]),
    mounts: z
      .array(z.object({ host: z.string().startsWith('/'), box: z.string().startsWith('/') }).strict())
      .default([]),
    detect: DetectInput.default({ headers: [], entryFiles: [], claims: {} }),
    /** A program that copies its standard input to its standard output: `judge-runner check` compiles and runs it. */
    selfTest: z.string().min(1).optional(),
  })
  .strict()
  .refine((l) => !l.compiled || l.compile !== undefined, { message: 'a compiled language needs `compile`' });
export type LanguageEntry = z.infer<typeof LanguageEntry>;

export const LanguageTableFile = z
  .object({
    $comment: z.unknown().optional(),
    compileLimits: LimitsInput,
    languages: z.record(z.string().regex(/^[a-z0-9][a-z0-9_+.-]*$/), LanguageEntry),
  })
  .strict();
export type LanguageTableFile = z.infer<typeof LanguageTableFile>;
export type CompileLimitsInput = z.infer<typeof LimitsInput>;

/** Reads and validates a table file; a bad table throws with every problem named. */
export function readLanguageTableFile(file: string): LanguageTableFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`language table ${file}: ${(e as Error).message}`);
  }
  const parsed = LanguageTableFile.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`language table ${file} is invalid:\n  ${problems.join('\n  ')}`);
  }
  extensionIndex(parsed.data, file);
  return parsed.data;
}

/** Language id by extension (lower case, no dot); an extension claimed twice is refused. */
export function extensionIndex(table: LanguageTableFile, file = 'the language table'): Map<string, string> {
  const byExt = new Map<string, string>();
  for (const [id, l] of Object.entries(table.languages)) {
    for (const e of l.extensions.map((x) => x.toLowerCase())) {
      const other = byExt.get(e);
      if (other) throw new Error(`language table ${file}: extension .${e} belongs to both ${other} and ${id}`);
      byExt.set(e, id);
    }
  }
  return byExt;
}

/** The extension of a file name, lower case without the dot. */
export const extensionOf = (fileName: string): string | undefined => /\.([^./]+)$/.exec(fileName)?.[1]?.toLowerCase();

/** The language a submission names in `props.language`, else the one its file extension says. */
export function languageOfFile(byExtension: ReadonlyMap<string, string>, fileName: string, props?: Record<string, unknown> | null): string | undefined {
  const named = props?.language;
  if (typeof named === 'string' && named) return named;
  const ext = extensionOf(fileName);
  return ext ? byExtension.get(ext) : undefined;
}

/** What program detection needs of a language. */
export interface DetectableLanguage {
  id: string;
  extensions: string[];
  detect: { precedence?: number; headers: string[]; entryFiles: string[]; mainPattern?: string; claims?: Record<string, string> };
}

/** Reads a file of the program (relative name) as text, or undefined when it cannot. */
export type ReadText = (file: string) => string | undefined;

/** The language claiming `file` by its code (detect.claims), if any. */
function claimedBy(file: string, langs: DetectableLanguage[], read: ReadText | undefined): string | undefined {
  const ext = extensionOf(file);
  if (!read || !ext) return undefined;
  const claimers = langs.filter((l) => l.detect.claims?.[ext] !== undefined);
  if (!claimers.length) return undefined;
  const text = read(file);
  if (text === undefined) return undefined;
  return claimers.find((l) => new RegExp(l.detect.claims![ext]!, 'm').test(text))?.id;
}

/**
 * The language of a package's program directory (files relative to it): `build-run` when it has
 * build or run scripts; else the highest-precedence language one of whose sources (or entry files)
 * is there; else the one language all its sources share, a file's code deciding where another
 * language claims its extension (`read` gives the code). Headers and documentation say nothing.
 */
export function detectProgramLanguage(files: string[], languages: Iterable<DetectableLanguage>, read?: ReadText): string | undefined {
  const top = files.filter((f) => !f.includes('/'));
  if (top.includes('build') || top.includes('run')) return 'build-run';
  const langs = [...languages];
  const headers = new Set(langs.flatMap((l) => l.detect.headers.map((h) => h.toLowerCase())));
  const sources = files.filter((f) => !DOC_FILE.test(f) && !headers.has(extensionOf(f) ?? ''));
  const ranked = langs.filter((l) => l.detect.precedence !== undefined).sort((a, b) => b.detect.precedence! - a.detect.precedence!);
  for (const l of ranked) {
    if (l.detect.entryFiles.some((f) => top.includes(f))) return l.id;
    if (sources.some((f) => l.extensions.includes(extensionOf(f) ?? ''))) return l.id;
  }
  const byExt = new Map(langs.flatMap((l) => l.extensions.map((e) => [e.toLowerCase(), l.id] as const)));
  const found = new Set(sources.flatMap((f) => claimedBy(f, langs, read) ?? byExt.get(extensionOf(f) ?? '') ?? []));
  return found.size === 1 ? [...found][0] : undefined;
}

/** The language of one file of a package (an example submission given as a single file), its code deciding a claimed extension. */
export function fileLanguage(fileName: string, languages: Iterable<DetectableLanguage>, read?: ReadText): string | undefined {
  const ext = extensionOf(fileName);
  if (!ext) return undefined;
  const langs = [...languages];
  const claimed = claimedBy(fileName, langs, read);
  if (claimed) return claimed;
  for (const l of langs) if (l.extensions.includes(ext)) return l.id;
  return undefined;
}
