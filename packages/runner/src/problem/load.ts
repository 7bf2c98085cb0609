import { defaultLanguageTable, type LanguageTable } from '../languages.js';
import { parseDefaultValidatorFlags } from './default-validator.js';
import { readPackageManifest } from './manifest.js';
import { findValidator, readIncludes, readSubmissions } from './sources.js';
import { readTestData } from './testdata.js';
import { PackageError, type ProblemSpec, type TestGroup, testsOf } from './types.js';

export { programLanguage } from './sources.js';

/**
 * Reads an extracted ICPC problem package (decisions §13) into a ProblemSpec: problem.yaml in its
 * legacy and 2023-07 (through 2025-09) forms (problem/manifest.ts), the test data tree with its
 * group settings (problem/testdata.ts), the output validator, include/ and the example submissions
 * (problem/sources.ts, recognised by the language table). A package the runner cannot judge is a
 * PackageError naming the file and the fault.
 */
export async function loadProblem(dir: string, languages: LanguageTable = defaultLanguageTable()): Promise<ProblemSpec> {
  const warnings: string[] = [];
  const manifest = await readPackageManifest(dir, warnings);
  const { format, kind } = manifest;
  const { validatorFlags } = manifest;
  const customValidator = await findValidator(dir, format, kind.custom, warnings, languages);
  if (kind.interactive && !customValidator) {
    throw new PackageError('the problem is interactive but the package has no output validator (output_validators/ or output_validator/) to interact with');
  }
  if (kind.multiPass && !customValidator) {
    throw new PackageError('the problem is multi-pass but the package has no output validator (output_validators/ or output_validator/) to write nextpass.in');
  }
  if (kind.custom && !customValidator) {
    throw new PackageError('problem.yaml asks for a custom output validator (validation: custom) but output_validators/ holds none');
  }
  const data = await readTestData(dir, format, kind.scoring, validatorFlags, warnings);
  if (!customValidator) checkDefaultValidatorFlags(data);
  return {
    dir,
    format,
    formatVersion: manifest.formatVersion,
    name: manifest.name,
    scoring: kind.scoring,
    interactive: kind.interactive,
    multiPass: kind.multiPass,
    submitAnswer: kind.submitAnswer,
    customValidator,
    validatorFlags,
    limits: manifest.limits,
    languages: manifest.languages,
    allowFileWriting: manifest.allowFileWriting,
    include: await readIncludes(dir),
    data,
    submissions: await readSubmissions(dir, format, warnings, languages),
    warnings,
  };
}

/** The default validator judges: its flags must make sense for every test case. */
function checkDefaultValidatorFlags(data: TestGroup): void {
  const seen = new Set<string>();
  for (const test of testsOf(data)) {
    const key = test.validatorArgs.join('\0');
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      parseDefaultValidatorFlags(test.validatorArgs);
    } catch (e) {
      throw new PackageError(`${test.name}: ${(e as Error).message}`);
    }
  }
}
