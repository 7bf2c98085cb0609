/**
 * How many jobs a runner judges at once, and on which CPUs. By default one slot per CPU this
 * process may run on, each slot's programs pinned to a CPU of its own: measured on 2 cores
 * (bench/slots.mjs), two pinned slots judge 1.6–1.9× as many submissions as one, with the CPU
 * time of the same solution as steady as with one slot. More slots than CPUs are not pinned.
 */
import fs from 'node:fs';
import os from 'node:os';

export interface SlotPlan {
  slots: number;
  /** CPU of slot n: cpus[n % cpus.length]; empty when not pinned. */
  cpus: number[];
  /** One line for the runner's log: what it chose and why. */
  why: string;
}

/** The CPUs this process may run on (its affinity, e.g. a container's cpuset), in order. */
export function allowedCpus(status = readStatus()): number[] {
  const m = /^Cpus_allowed_list:\s*(\S+)/m.exec(status);
  if (!m) return Array.from({ length: os.availableParallelism() }, (_, i) => i);
  const out: number[] = [];
  for (const part of m[1]!.split(',')) {
    const [a, b] = part.split('-').map(Number);
    if (a === undefined || Number.isNaN(a)) continue;
    for (let c = a; c <= (b ?? a); c++) out.push(c);
  }
  return out.length ? out : [0];
}

function readStatus(): string {
  try {
    return fs.readFileSync('/proc/self/status', 'utf8');
  } catch {
    return '';
  }
}

export function planSlots(requested: number | 'auto', pin: boolean, cpus = allowedCpus()): SlotPlan {
  const slots = requested === 'auto' ? cpus.length : requested;
  const pinned = pin && slots <= cpus.length;
  const where = pinned
    ? slots === 1
      ? `, pinned to CPU ${cpus[0]}`
      : `, each pinned to a CPU of its own (${cpus.slice(0, slots).join(', ')})`
    : pin ? ', not pinned (more slots than CPUs)' : ', not pinned (--no-pin)';
  const chosen = requested === 'auto' ? `one per CPU this runner may use (${cpus.length})` : 'as asked';
  return { slots, cpus: pinned ? cpus.slice(0, slots) : [], why: `${slots} slot${slots === 1 ? '' : 's'}: ${chosen}${where}` };
}

/** `--slots` value: a whole number from 1 to 64, or `auto`. */
export function parseSlots(v: string): number | 'auto' {
  if (v === 'auto') return 'auto';
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error('a whole number from 1 to 64, or auto');
  return n;
}
