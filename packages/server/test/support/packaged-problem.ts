import { ops, type FileMeta, type Problem, type ProblemVersion } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';

/** A problem whose first version is made from a package zip, as judging needs it. */
export interface PackagedProblem {
  problem: Problem;
  version: ProblemVersion;
  pkg: FileMeta;
}

/** Creates a problem of `type` and uploads `zip` (named `fileName`) as its first version's package. */
export async function packagedProblem(
  c: JudgeClient,
  body: { slug: string; name: string; type: string },
  zip: Buffer,
  fileName = 'package.zip',
): Promise<PackagedProblem> {
  const problem = await c.call(ops.createProblem, { body });
  const pkg = await c.upload(fileName, zip, 'application/zip');
  const version = await c.call(ops.createProblemVersion, { params: { problemId: problem.id }, body: { package: { fileId: pkg.id } } });
  return { problem, version, pkg };
}
