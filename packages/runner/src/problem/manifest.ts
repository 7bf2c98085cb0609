import { join } from 'node:path';
import { DOMJUDGE_INI_FILE, MANIFEST_FILE, PackageError, TIMELIMIT_FILE, packageTimeLimit, readManifest, type Manifest } from '@judge/problem-package';
import { readOptional } from './files.js';

/**
 * problem.yaml of an extracted package, read by the shared manifest module, with the time limit
 * in DOMjudge's precedence: problem.yaml's `limits.time_limit`, else domjudge-problem.ini's
 * `timelimit`, else the legacy `.timelimit` file (a disagreeing one is a warning).
 */
export async function readPackageManifest(dir: string, warnings: string[]): Promise<Manifest> {
  const text = await readOptional(join(dir, MANIFEST_FILE));
  if (text === undefined) throw new PackageError('problem.yaml is missing');
  const manifest = readManifest(text, warnings);
  const timeLimit = packageTimeLimit(
    {
      manifest: manifest.limits.timeLimitSeconds,
      ini: await readOptional(join(dir, DOMJUDGE_INI_FILE)),
      timelimit: await readOptional(join(dir, TIMELIMIT_FILE)),
    },
    warnings,
  );
  if (timeLimit) {
    manifest.limits.timeLimitSeconds = timeLimit.seconds;
    manifest.limits.timeLimitSource = timeLimit.source;
  }
  return manifest;
}
