/** Package inspection off the event loop: the server's one way to read an uploaded package's metadata. */
import { PackageError, type inspectPackageZip } from '@judge/problem-package';
import { failureText, OffloopFailure } from './failure.js';
import { defineJob, type BoundedPool } from './pool.js';

const INSPECT = defineJob<typeof import('./inspect-package-job.js').default>({
  name: 'package',
  module: new URL('./inspect-package-job.js', import.meta.url),
  timeoutMs: 30_000,
  memoryMb: 256,
});

/** What inspectPackageZip answers, computed on the bounded pool; a fault, or running out of time or memory, is a PackageError. */
export async function inspectOffLoop(pool: BoundedPool, path: string): ReturnType<typeof inspectPackageZip> {
  const out = await pool.run(INSPECT, path).catch((e: unknown) => {
    throw e instanceof OffloopFailure ? new PackageError(`reading it failed: ${failureText(e)}`) : e;
  });
  if ('refused' in out) throw new PackageError(out.refused);
  return out.summary;
}
