import { PackageError } from './errors.js';
import type { ProblemFormat } from './types.js';

/** Where things are in a problem package (decisions §13), legacy and 2023-07 alike. */

export const MANIFEST_FILE = 'problem.yaml';
/** The legacy time limit, beside problem.yaml. */
export const TIMELIMIT_FILE = '.timelimit';
/** DOMjudge's problem metadata (its `timelimit` among others), beside problem.yaml. */
export const DOMJUDGE_INI_FILE = 'domjudge-problem.ini';
export const DATA_DIR = 'data';
/** The groups of data/ that are judged; the rest (invalid_input, ...) serves validators. */
export const JUDGED_GROUPS = ['sample', 'secret'] as const;
export const INCLUDE_DIR = 'include';
export const SUBMISSIONS_DIR = 'submissions';

/** The output validator's folder: legacy packages name it output_validators/, 2023-07 ones output_validator/. */
export const validatorDirs = (format: ProblemFormat): string[] =>
  format === 'legacy' ? ['output_validators', 'output_validator'] : ['output_validator', 'output_validators'];

/** Names starting with a dot or a dash are not part of the package (2025-09). */
export const isCountedName = (name: string) => !name.startsWith('.') && !name.startsWith('-');

/** Documentation beside programs, never a source. */
export const DOC_FILE = /(^|\/)(README|LICENSE|COPYING)(\.[a-z]+)?$|\.(md|txt|pdf)$/i;

/** `problem_statement/problem.en.md`, `statement/problem.pdf`, ...: language and format of a statement. */
export const STATEMENT_PATH = /^(?:problem_statement|statement)\/problem(?:\.([A-Za-z]{2,3}(?:-[A-Za-z]+)?))?\.(md|pdf|html|tex)$/;

/** Test cases by judged group, counted from the package's file names (`.in` files, nested groups too). */
export function countTests(names: string[]): { sample: number; secret: number } {
  if (!names.some((n) => n === DATA_DIR || n.startsWith(`${DATA_DIR}/`))) throw new PackageError('data/ is missing');
  const count = (group: string) => names.filter((n) => n.startsWith(`${DATA_DIR}/${group}/`) && n.endsWith('.in')).length;
  const tests = { sample: count('sample'), secret: count('secret') };
  if (tests.sample + tests.secret === 0) throw new PackageError('data/ holds no tests: no .in files under data/sample or data/secret');
  return tests;
}
