import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DOC_FILE,
  INCLUDE_DIR,
  PackageError,
  SUBMISSIONS_DIR,
  detectProgramLanguage,
  extensionOf,
  fileLanguage,
  isMapping,
  number,
  parseMapping,
  splitArgs,
  validatorDirs,
} from '@judge/problem-package';
import { defaultLanguageTable, type LanguageTable } from '../languages.js';
import { entries, filesBelow, isDir, readOptional } from './files.js';
import type { ExampleSubmission, ProblemFormat, ProblemSpec, ProgramSource, Verdict } from './types.js';

/**
 * The programs of an extracted package: the output validator, include/ and the example
 * submissions, each recognised by the language table's detection rules.
 */

/** The language of a program directory: build/run scripts, else what the language table's detection rules say. */
export function programLanguage(files: string[], languages: LanguageTable = defaultLanguageTable(), dir?: string): string | undefined {
  return detectProgramLanguage(files, languages.languages.values(), dir === undefined ? undefined : readerIn(dir));
}

/** Reads a program's file as text (a claimed extension's code decides its language: Prolog's .pl). */
function readerIn(dir: string): (file: string) => string | undefined {
  return (file) => {
    try {
      return readFileSync(join(dir, file), 'utf8');
    } catch {
      return undefined;
    }
  };
}

/** Files that accompany sources without being one: the table's headers and documentation. */
function isAccessory(name: string, languages: LanguageTable): boolean {
  const ext = extensionOf(name);
  return DOC_FILE.test(name) || (ext !== undefined && [...languages.languages.values()].some((l) => l.detect.headers.includes(ext)));
}

/** The package's one output validator (legacy: only when problem.yaml asks for it), with its language. */
export async function findValidator(
  dir: string,
  format: ProblemFormat,
  requested: boolean,
  warnings: string[],
  languages: LanguageTable,
): Promise<ProgramSource | undefined> {
  const candidates = validatorDirs(format);
  let found: string | undefined;
  for (const c of candidates) {
    if (await isDir(join(dir, c))) {
      found = c;
      break;
    }
  }
  if (!found) return undefined;
  if (format === 'legacy' && !requested) {
    warnings.push(`${found}/ is present but problem.yaml says validation: default; the default validator judges`);
    return undefined;
  }
  const root = join(dir, found);
  const list = await entries(root);
  const subdirs = list.filter((e) => e.isDirectory());
  const programFiles = list.filter((e) => e.isFile() && !isAccessory(e.name, languages));
  let programDir = root;
  if (subdirs.length === 1 && programFiles.length === 0) programDir = join(root, subdirs[0]!.name);
  else if (subdirs.length > 1 || (subdirs.length === 1 && programFiles.length > 0)) {
    throw new PackageError(`${found}/ holds several programs (${list.map((e) => e.name).join(', ')}); this runner runs exactly one output validator`);
  }
  const files = await filesBelow(programDir);
  if (files.length === 0) throw new PackageError(`${found}/ is empty`);
  const language = programLanguage(files, languages, programDir);
  if (!language) throw new PackageError(`cannot tell the language of the output validator in ${found}/ (give build and run scripts, or sources of one language of the language table)`);
  return { dir: programDir, files, language };
}

/** include/default and include/<language>: files added to every submission (of that language). */
export async function readIncludes(dir: string): Promise<ProblemSpec['include']> {
  const include: ProblemSpec['include'] = { byLanguage: {} };
  for (const e of await entries(join(dir, INCLUDE_DIR))) {
    if (!e.isDirectory()) continue;
    const path = join(dir, INCLUDE_DIR, e.name);
    if (e.name === 'default') include.default = path;
    else include.byLanguage[e.name] = path;
  }
  return include;
}

const VERDICTS = new Set<string>(['AC', 'WA', 'TLE', 'RTE', 'MLE', 'OLE']);

/** The example submissions by expected verdict folder, with submissions.yaml's rules (2023-07) applied. */
export async function readSubmissions(dir: string, format: ProblemFormat, warnings: string[], languages: LanguageTable): Promise<ExampleSubmission[]> {
  const root = join(dir, SUBMISSIONS_DIR);
  const rules = format === '2023-07' ? await readSubmissionRules(root, warnings) : [];
  const out: ExampleSubmission[] = [];
  for (const group of await entries(root)) {
    if (!group.isDirectory()) continue;
    for (const e of await entries(join(root, group.name))) {
      const path = `${group.name}/${e.name}`;
      let sub: ExampleSubmission;
      if (e.isDirectory()) {
        const files = await filesBelow(join(root, path));
        if (files.length === 0) continue;
        sub = { expected: group.name, path, dir: join(root, path), files };
        const lang = programLanguage(files, languages, join(root, path));
        if (lang && lang !== 'build-run') sub.language = lang;
      } else if (e.isFile()) {
        if (DOC_FILE.test(e.name)) continue;
        sub = { expected: group.name, path, dir: join(root, group.name), files: [e.name] };
        const lang = fileLanguage(e.name, languages.languages.values(), readerIn(join(root, group.name)));
        if (lang) sub.language = lang;
      } else continue;
      for (const rule of rules) {
        if (!rule.pattern.test(path) && !rule.pattern.test(group.name)) continue;
        if (rule.language) sub.language = rule.language;
        if (rule.permitted) sub.permitted = rule.permitted;
        if (rule.required) sub.required = rule.required;
        if (rule.score) sub.score = rule.score;
      }
      out.push(sub);
    }
  }
  return out;
}

interface SubmissionRule {
  pattern: RegExp;
  language?: string;
  permitted?: Verdict[];
  required?: Verdict[];
  score?: [number, number];
}

async function readSubmissionRules(root: string, warnings: string[]): Promise<SubmissionRule[]> {
  const text = await readOptional(join(root, 'submissions.yaml'));
  if (text === undefined) return [];
  const m = parseMapping(text, 'submissions/submissions.yaml');
  const rules: SubmissionRule[] = [];
  const verdicts = (v: unknown, what: string): Verdict[] => {
    const list = splitArgs(v, what);
    for (const x of list) if (!VERDICTS.has(x)) throw new PackageError(`${what}: "${x}" is not one of AC, WA, TLE, RTE`);
    return list as Verdict[];
  };
  for (const [glob, value] of Object.entries(m)) {
    if (!isMapping(value)) throw new PackageError(`submissions/submissions.yaml: ${glob} must map to a mapping`);
    const rule: SubmissionRule = { pattern: globToRegExp(glob) };
    const where = `submissions/submissions.yaml: ${glob}`;
    for (const [key, v] of Object.entries(value)) {
      switch (key) {
        case 'language':
          if (typeof v === 'string') rule.language = v;
          break;
        case 'permitted':
          rule.permitted = verdicts(v, `${where}.permitted`);
          break;
        case 'required':
          rule.required = verdicts(v, `${where}.required`);
          break;
        case 'score':
          if (Array.isArray(v) && v.length === 2) rule.score = [number(v[0], `${where}.score`), number(v[1], `${where}.score`)];
          else {
            const n = number(v, `${where}.score`);
            rule.score = [n, n];
          }
          break;
        case 'entrypoint':
        case 'authors':
        case 'model_solution':
        case 'message':
        case 'use_for_time_limit':
          break;
        default:
          if (isMapping(v)) warnings.push(`${where}: constraints on the test data group ${key} are not checked`);
          else warnings.push(`${where}: unknown key ${key} ignored`);
      }
    }
    rules.push(rule);
  }
  return rules;
}

/** `*` within one path segment, `{a,b}` alternatives; the whole path must match, or a parent directory of it. */
function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') re += '[^/]*';
    else if (c === '{') {
      const end = glob.indexOf('}', i);
      if (end < 0) {
        re += '\\{';
        continue;
      }
      re += `(?:${glob.slice(i + 1, end).split(',').map(escapeRe).join('|')})`;
      i = end;
    } else re += escapeRe(c);
  }
  return new RegExp(`^${re}(?:/.*)?$`);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
