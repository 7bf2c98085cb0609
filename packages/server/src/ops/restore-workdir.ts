import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { OpsError } from './errors.js';

/**
 * The folder a restore into NEW writes, `NEW.restoring-<pid>-<start>-<random>`, renamed to NEW
 * when everything is in place. Its name says which process owns it: the process id and that
 * process's start time, so that a leftover of a killed restore is told from a restore still
 * running, even once the pid is reused.
 */

/** A process's start time in clock ticks since boot (field 22 of /proc/PID/stat); none where /proc is not. */
export function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: count from the last ')'
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function running(pid: number, start: string): boolean {
  if (start !== '0') return startTimeOf(pid) === start;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface Leftovers {
  removed: string[];
  /** Working folders of restores into the same NEW that still run. */
  live: { path: string; pid: number }[];
  /** Named as restores before owners were named (`NEW.restoring-<random>`): whose they are cannot be told. */
  unknown: string[];
}

/**
 * Removes the working folders a killed restore into `dir` left beside it: only folders with this
 * pattern's names, owned by this user, not links, whose process is gone.
 */
export function sweepLeftovers(dir: string, own?: string): Leftovers {
  const parent = dirname(dir);
  const base = escapeRe(basename(dir));
  const named = new RegExp(`^${base}\\.restoring-(\\d+)-(\\d+)-[0-9a-f]{12}$`);
  const older = new RegExp(`^${base}\\.restoring-[0-9a-f]{12}$`);
  const out: Leftovers = { removed: [], live: [], unknown: [] };
  for (const name of readdirSync(parent)) {
    const path = join(parent, name);
    const m = named.exec(name);
    if (path === own || (!m && !older.test(name))) continue;
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st || !st.isDirectory() || st.uid !== process.getuid?.()) continue;
    if (!m) out.unknown.push(path);
    else if (running(Number(m[1]), m[2]!)) out.live.push({ path, pid: Number(m[1]) });
    else {
      rmSync(path, { recursive: true, force: true });
      out.removed.push(path);
    }
  }
  return out;
}

/**
 * Makes this restore's working folder beside `dir`, then clears the leftovers of killed restores
 * into `dir`; refuses while another restore into `dir` runs. `notice` hears what was removed.
 */
export function claimWorkDir(dir: string, notice: (message: string) => void): { path: string; removed: string[] } {
  const path = `${dir}.restoring-${process.pid}-${startTimeOf(process.pid) ?? 0}-${randomBytes(6).toString('hex')}`;
  mkdirSync(path, { mode: 0o750 });
  let found: Leftovers;
  try {
    found = sweepLeftovers(dir, path);
  } catch (e) {
    rmSync(path, { recursive: true, force: true });
    throw e;
  }
  for (const r of found.removed) notice(`removed ${r}, left by a restore that was stopped before it finished`);
  for (const u of found.unknown) notice(`${u} looks like the leftover of an earlier judge's restore; remove it by hand once no restore runs`);
  const other = found.live[0];
  if (other) {
    rmSync(path, { recursive: true, force: true });
    throw new OpsError(`another restore into ${dir} is under way (process ${other.pid}, writing ${other.path}); wait for it to end or stop it, then try again`);
  }
  return { path, removed: found.removed };
}
