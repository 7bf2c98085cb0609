import { PackageError } from './errors.js';
import { countTests, DOMJUDGE_INI_FILE, MANIFEST_FILE, TIMELIMIT_FILE } from './layout.js';
import { packageTimeLimit } from './limits.js';
import { readManifest } from './manifest.js';
import { parseMapping } from './yaml.js';
import type { ProblemFormat } from './types.js';
import { openPackageZip, readEntry, UPLOAD_ZIP_LIMITS, type PackageZip, type ZipLimits } from './zip.js';

/** What a package says of itself, for the server's summary of a problem version. */
export interface PackageSummary {
  name?: string;
  timeLimitSeconds?: number;
  memoryMiB?: number;
  /** Only when the package names one. */
  outputMiB?: number;
  validation?: string;
  sampleCount: number;
  secretCount: number;
  format: ProblemFormat;
}

/** problem.yaml, domjudge-problem.ini and .timelimit are read into memory: they are small in any real package. */
export const METADATA_BYTES = 1024 ** 2;

/**
 * Checks a package zip (its path or bytes) by the zip safety rules, problem.yaml and the layout,
 * and answers its summary. Only the central directory is trusted before the two small metadata
 * files are read, so a hostile zip costs at most those reads. A fault is a PackageError.
 */
export async function inspectPackageZip(source: string | Uint8Array, limits: ZipLimits = UPLOAD_ZIP_LIMITS): Promise<PackageSummary> {
  const pkg = await openPackageZip(source, limits);
  try {
    const byName = new Map(pkg.entries.map((e) => [e.name, e]));
    const yamlEntry = byName.get(MANIFEST_FILE);
    if (!yamlEntry || yamlEntry.directory) throw new PackageError('problem.yaml is missing');
    const manifest = readManifest((await readEntry(pkg, yamlEntry, METADATA_BYTES)).toString('utf8'));
    const tests = countTests(pkg.entries.map((e) => e.name));
    await refuseUnsupportedGrading(pkg, manifest.format);
    const text = async (name: string): Promise<string | undefined> => {
      const e = byName.get(name);
      return e && !e.directory ? (await readEntry(pkg, e, METADATA_BYTES)).toString('utf8') : undefined;
    };
    const timeLimitSeconds = packageTimeLimit({
      manifest: manifest.limits.timeLimitSeconds,
      ini: await text(DOMJUDGE_INI_FILE),
      timelimit: await text(TIMELIMIT_FILE),
    })?.seconds;
    const summary: PackageSummary = { sampleCount: tests.sample, secretCount: tests.secret, format: manifest.format };
    if (manifest.name) summary.name = manifest.name;
    if (timeLimitSeconds !== undefined) summary.timeLimitSeconds = timeLimitSeconds;
    if (manifest.limits.memoryMiB !== undefined) summary.memoryMiB = manifest.limits.memoryMiB;
    if (manifest.limits.outputMiB !== undefined) summary.outputMiB = manifest.limits.outputMiB;
    if (manifest.validation !== undefined) summary.validation = manifest.validation;
    return summary;
  } finally {
    pkg.close();
  }
}

/** At most this many group files are read at upload: real packages have a few dozen groups. */
const MAX_GROUP_FILES = 500;

/**
 * The group settings of data/ that ask for a judging mode the runner refuses at load (a custom
 * grader, static validation) are refused at upload too, naming the feature, rather than failing
 * every submission later.
 */
async function refuseUnsupportedGrading(pkg: PackageZip, format: ProblemFormat): Promise<void> {
  const files = pkg.entries.filter((e) => !e.directory && /^data\/(?:.+\/)?(?:testdata|test_group)\.yaml$/.test(e.name)).slice(0, MAX_GROUP_FILES);
  for (const entry of files) {
    const m = parseMapping((await readEntry(pkg, entry, METADATA_BYTES)).toString('utf8'), entry.name);
    if (format === 'legacy' && m.grading === 'custom') throw new PackageError(`${entry.name} asks for a custom grader (grading: custom); this judge supports the default grader only`);
    if (format !== 'legacy' && (m.static_validation_score !== undefined || (m.static_validation !== undefined && m.static_validation !== false))) {
      throw new PackageError(`${entry.name} defines a static validation test case; static validators are not supported by this judge`);
    }
  }
}
