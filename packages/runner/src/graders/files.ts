import fs from 'node:fs';
import path from 'node:path';
import type { TestCase } from '../problem/types.js';
import type { Box } from '../sandbox/sandbox.js';

/** Every regular file below `dir`, as paths relative to it. */
export async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.promises.readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else if (e.isFile()) out.push(rel);
  }
  return out;
}

/** `<name>.files/` goes into the working directory for one test and away after it. */
export async function withTestFiles<T>(box: Box, test: TestCase, body: () => Promise<T>): Promise<T> {
  if (!test.filesDir) return body();
  const names = await listFiles(test.filesDir);
  for (const rel of names) {
    const target = path.join(box.path, rel);
    await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
    await fs.promises.copyFile(path.join(test.filesDir, rel), target);
    await fs.promises.chmod(target, 0o644);
  }
  try {
    return await body();
  } finally {
    for (const rel of names) await fs.promises.rm(path.join(box.path, rel), { force: true });
  }
}
