/**
 * The sandbox's own work directory under the system temp dir (`judge-sandbox-XXXXXX`), where
 * submissions' sources, binaries and outputs live while they are judged. A runner killed with
 * SIGKILL cannot remove its own, so each carries an owner file (pid and that process's start
 * time) and the next sandbox that starts removes those whose owner is gone: never a live runner's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { removeTree } from './host.js';

export const WORK_ROOT_PREFIX = 'judge-sandbox-';
const OWNER_FILE = '.owner';
/** A directory of an older runner (no owner file) is taken for a leftover only when untouched this long. */
const UNOWNED_AGE_MS = 60 * 60 * 1000;

interface Owner {
  pid: number;
  /** The process's start time in clock ticks since boot (/proc/PID/stat field 22): tells a reused pid. */
  start: string | null;
}

/** When the process started (clock ticks since boot), or undefined when it does not exist. */
export function processStart(pid: number): string | null | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: count from the last ')'
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return null; // no /proc: the pid alone must do
  }
}

function alive(owner: Owner): boolean {
  const start = processStart(owner.pid);
  if (start === undefined) return false;
  return owner.start === null || start === null || start === owner.start;
}

/** A fresh work root owned by this process (mode 0711: slot uids reach their boxes, list nothing). */
export function createWorkRoot(parent = os.tmpdir()): string {
  const dir = fs.mkdtempSync(path.join(parent, WORK_ROOT_PREFIX));
  const owner: Owner = { pid: process.pid, start: processStart(process.pid) ?? null };
  fs.writeFileSync(path.join(dir, OWNER_FILE), `${JSON.stringify(owner)}\n`, { mode: 0o644 });
  fs.chmodSync(dir, 0o711);
  return dir;
}

function ownerOf(dir: string): Owner | undefined {
  try {
    const o = JSON.parse(fs.readFileSync(path.join(dir, OWNER_FILE), 'utf8')) as Partial<Owner>;
    return typeof o.pid === 'number' && Number.isInteger(o.pid) && o.pid > 0 ? { pid: o.pid, start: typeof o.start === 'string' ? o.start : null } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Removes the work roots under `parent` that a dead runner left: ours (same owner uid), real
 * directories (no symlinks), whose owner process is gone, or, without an owner file, untouched for
 * an hour. Answers what it removed.
 */
export async function sweepWorkRoots(parent = os.tmpdir(), now = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = fs.readdirSync(parent).filter((n) => n.startsWith(WORK_ROOT_PREFIX));
  } catch {
    return [];
  }
  const me = process.geteuid?.() ?? -1;
  const removed: string[] = [];
  for (const name of names) {
    const dir = path.join(parent, name);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(dir);
    } catch {
      continue;
    }
    if (!st.isDirectory() || st.uid !== me) continue;
    const owner = ownerOf(dir);
    const dead = owner ? !alive(owner) : now - st.mtimeMs > UNOWNED_AGE_MS;
    if (!dead) continue;
    await removeTree(dir);
    if (!fs.existsSync(dir)) removed.push(dir);
  }
  return removed;
}
