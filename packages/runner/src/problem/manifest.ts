import { join } from 'node:path';
import { MANIFEST_FILE, PackageError, TIMELIMIT_FILE, parseTimelimitFile, readManifest, type Manifest } from '@judge/problem-package';
import { readOptional } from './files.js';

/**
 * problem.yaml of an extracted package, read by the shared manifest module, with the legacy
 * `.timelimit` file beside it supplying the time limit when problem.yaml gives none.
 */
export async function readPackageManifest(dir: string, warnings: string[]): Promise<Manifest> {
  const text = await readOptional(join(dir, MANIFEST_FILE));
  if (text === undefined) throw new PackageError('problem.yaml is missing');
  const manifest = readManifest(text, warnings);
  if (manifest.limits.timeLimitSeconds === undefined) {
    const timelimit = await readOptional(join(dir, TIMELIMIT_FILE));
    if (timelimit !== undefined) {
      manifest.limits.timeLimitSeconds = parseTimelimitFile(timelimit);
      manifest.limits.timeLimitSource = '.timelimit';
    }
  }
  return manifest;
}
