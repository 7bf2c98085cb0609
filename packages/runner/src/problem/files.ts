import type { Dirent } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { compareNames, isCountedName } from '@judge/problem-package';

/** Reading an extracted package's tree the way the format counts it. */

/** A file's text, undefined when it is not there. */
export async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw e;
  }
}

/** Files and directories the format counts (names starting with a dot or a dash are not), in byte order. */
export async function entries(dir: string): Promise<Dirent[]> {
  try {
    const list = await readdir(dir, { withFileTypes: true });
    return list.filter((e) => isCountedName(e.name)).sort((a, b) => compareNames(a.name, b.name));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw e;
  }
}

export async function isDir(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** Every regular file below `dir`, relative to it. */
export async function filesBelow(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await entries(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await filesBelow(dir, rel)));
    else if (e.isFile()) out.push(rel);
  }
  return out;
}
