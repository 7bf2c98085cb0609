import type { PackageInfo } from '@judge/contract';
import { PackageError } from '@judge/problem-package';
import { inspectOffLoop } from '../../offloop/inspect-package.js';
import type { BoundedPool } from '../../offloop/pool.js';
import type { z } from 'zod';
import { ApiError } from '@judge/contract';

export type PackageSummary = z.infer<typeof PackageInfo>;

/** The refusal of a package: 422 `package.invalid`, the reason exactly as the shared package reader gives it. */
export const packageRefused = (reason: string): ApiError =>
  ApiError.of('package.invalid', `The package is not a valid ICPC problem package: ${reason}`, { 'package.fileId': [reason] });

/**
 * Checks a stored package by the rules the runners apply (@judge/problem-package: the zip safety
 * rules, problem.yaml, the layout) and answers what it says of itself. Any fault is 422
 * `package.invalid` with the reader's reason, so what the server takes a runner can unpack. The
 * reading runs on the bounded pool (crafted metadata can take minutes to parse).
 */
export async function inspectPackage(pool: BoundedPool, path: string): Promise<PackageSummary> {
  try {
    return await inspectOffLoop(pool, path);
  } catch (e) {
    if (e instanceof PackageError) throw packageRefused(e.message);
    throw e;
  }
}
