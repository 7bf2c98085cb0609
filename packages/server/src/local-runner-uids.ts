/**
 * Which sandbox uids `judge up` gives its local runner. As root, judge-runner claims each uid of
 * its range before it judges and refuses to start when another runner holds one (a second judge
 * on the box, or a runner left over from an earlier one): its claim is an abstract Unix socket
 * per uid, whose holder answers a connection with its pid and range (packages/runner/src/sandbox/
 * host-lock.ts). judge up asks the same sockets before each start and takes the first range that
 * is free, so the runner does not crash-loop on a range it cannot have.
 */
import net from 'node:net';
import { availableParallelism } from 'node:os';

/** Slot n of a runner runs as uid 60000 + n unless told otherwise (judge-runner's default). */
export const DEFAULT_UID_BASE = 60000;
/** The highest uid judge-runner accepts as a base. */
const MAX_UID_BASE = 65000;

/** A runner's claim on one uid, named as judge-runner names it. */
const claimName = (uid: number) => `\0judge-runner/sandbox-uid/${uid}`;

export interface UidHolder {
  pid?: number;
  uidBase?: number;
  slots?: number;
  configDir?: string;
}

/** Who holds the claim on this uid: undefined when nobody does. */
export function uidHolder(uid: number): Promise<UidHolder | undefined> {
  return new Promise((resolve) => {
    let text = '';
    let connected = false;
    const s = net.connect(claimName(uid));
    const done = (h: UidHolder | undefined) => {
      s.destroy();
      resolve(h);
    };
    s.once('connect', () => (connected = true));
    // a holder answers at once; one that says nothing is still a holder
    s.setTimeout(1000, () => done({}));
    s.on('data', (d: Buffer) => (text += d.toString()));
    s.on('end', () => {
      try {
        done(JSON.parse(text) as UidHolder);
      } catch {
        done({});
      }
    });
    s.on('error', () => done(connected ? {} : undefined));
  });
}

/** The local runner's slots: judge-runner's default of one per CPU this process may use. */
export const localRunnerSlots = (): number => availableParallelism();

export interface UidRange {
  base: number;
  slots: number;
  /** The runners (or other processes) found on uids before `base`, in the order met. */
  passed: { uid: number; holder: UidHolder }[];
}

/**
 * The first range of `slots` uids from `first` on that no runner holds, or undefined when none is
 * left below judge-runner's highest base. A holder that says its range is skipped as a whole.
 */
export async function freeUidRange(first: number, slots: number): Promise<UidRange | undefined> {
  const passed: UidRange['passed'] = [];
  let base = first;
  while (base <= MAX_UID_BASE) {
    let taken: { uid: number; holder: UidHolder } | undefined;
    for (let uid = base; uid < base + slots && !taken; uid++) {
      const holder = await uidHolder(uid);
      if (holder) taken = { uid, holder };
    }
    if (!taken) return { base, slots, passed };
    passed.push(taken);
    const { holder, uid } = taken;
    base = holder.uidBase !== undefined && holder.slots !== undefined ? Math.max(uid + 1, holder.uidBase + holder.slots) : uid + 1;
  }
  return undefined;
}

const span = (base: number, slots: number) => `${base}..${base + slots - 1}`;

/** A holder as the log names it. */
export function describeHolder(h: UidHolder): string {
  if (h.pid === undefined) return 'another process';
  const range = h.uidBase !== undefined && h.slots !== undefined ? `, sandbox uids ${span(h.uidBase, h.slots)}` : '';
  return `judge-runner pid ${h.pid}${range}${h.configDir ? `, config ${h.configDir}` : ''}`;
}

/**
 * What judge up says when it moved its runner past uids others hold. `ownConfigDir` is the local
 * runner's: a holder with it is a runner an earlier judge up on this data directory left running.
 */
export function movedUidsNotice(asked: number, range: UidRange, ownConfigDir?: string): string {
  const holders = [...new Set(range.passed.map((p) => describeHolder(p.holder)))].join('; ');
  const stale = range.passed.find((p) => ownConfigDir && p.holder.configDir === ownConfigDir && p.holder.pid !== undefined);
  const leftOver = stale ? ` pid ${stale.holder.pid} was left running by an earlier judge on this data directory: stop it (kill ${stale.holder.pid}).` : '';
  return (
    `judge: sandbox uids ${span(asked, range.slots)} are in use (${holders}), so the local runner uses ${span(range.base, range.slots)}.${leftOver} ` +
    `To keep this range at every start: judge up --runner-uid-base ${range.base}`
  );
}

/** Why judge up starts no local runner when every range is held. */
export function noFreeUidsReason(asked: number, slots: number): string {
  return (
    `no ${slots} free sandbox uids from ${asked} to ${MAX_UID_BASE + slots - 1}: other runners hold them all. ` +
    'Stop a runner this box no longer needs, or start judge up with --no-runner'
  );
}
