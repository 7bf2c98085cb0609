/**
 * The job that reads a package's zip and metadata (@judge/problem-package), on a thread of the
 * bounded pool: its YAML files alone can take minutes to parse when crafted (a 640 KB mapping took
 * 97 s). A refusal comes back as data, since an error's class does not cross threads. Under the
 * tests this thread loads @judge/problem-package's build (dist/), as the runner and judgectl do.
 */
import { inspectPackageZip, PackageError } from '@judge/problem-package';

export type Inspected = { summary: Awaited<ReturnType<typeof inspectPackageZip>> } | { refused: string };

export default async function inspectPackageJob(path: string): Promise<Inspected> {
  try {
    return { summary: await inspectPackageZip(path) };
  } catch (e) {
    if (e instanceof PackageError) return { refused: e.message };
    throw e;
  }
}
