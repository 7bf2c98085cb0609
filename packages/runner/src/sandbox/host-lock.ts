/**
 * Sandbox uids belong to one runner per host. Two runners whose slots ran as the same uid could
 * signal or ptrace each other's programs, read each other's boxes, and share RLIMIT_NPROC, so a
 * runner claims each uid of its range before it judges and refuses to start when another holds one.
 *
 * A claim is an abstract Unix socket named after the uid: binding it is atomic, and the kernel
 * frees the name when the process dies however it dies (SIGKILL included), so there is no stale
 * lock file to clean up. The holder answers a connection with its pid and range, which the refusal
 * names. Abstract names live in a network namespace: runners in separate network namespaces of
 * one host (containers) do not see each other's claims and must be given ranges apart.
 */
import net from 'node:net';

/** Slot n runs as uid DEFAULT_UID_BASE + n unless --uid-base says otherwise. */
export const DEFAULT_UID_BASE = 60000;

export class UidRangeInUse extends Error {}

export interface UidClaim {
  /** Gives the uids back (they are also given back when the process ends). */
  release(): void;
}

interface Holder {
  pid: number;
  uidBase: number;
  slots: number;
  configDir?: string;
}

const socketName = (uid: number) => `\0judge-runner/sandbox-uid/${uid}`;

function bind(uid: number, me: Holder): Promise<net.Server | 'taken'> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((s) => s.end(`${JSON.stringify(me)}\n`));
    server.once('error', (e: NodeJS.ErrnoException) => (e.code === 'EADDRINUSE' ? resolve('taken') : reject(e)));
    server.listen(socketName(uid), () => {
      server.unref();
      resolve(server);
    });
  });
}

/** Asks the holder of a uid who it is (it answers at once; silence means a process that is not a runner). */
function holderOf(uid: number): Promise<Holder | undefined> {
  return new Promise((resolve) => {
    let text = '';
    const s = net.connect(socketName(uid));
    const done = (h?: Holder) => {
      s.destroy();
      resolve(h);
    };
    s.setTimeout(1000, () => done());
    s.on('data', (d: Buffer) => (text += d.toString()));
    s.on('end', () => {
      try {
        done(JSON.parse(text) as Holder);
      } catch {
        done();
      }
    });
    s.on('error', () => done());
  });
}

function refusal(uid: number, me: Holder, other: Holder | undefined): string {
  const mine = `${me.uidBase}..${me.uidBase + me.slots - 1}`;
  const who = other
    ? `judge-runner pid ${other.pid} (sandbox uids ${other.uidBase}..${other.uidBase + other.slots - 1}${other.configDir ? `, config ${other.configDir}` : ''})`
    : 'another process';
  const free = other ? Math.max(me.uidBase, other.uidBase + other.slots) : me.uidBase + me.slots;
  return (
    `sandbox uid ${uid} (of this runner's ${mine}) is already used by ${who}: two runners on one host must not share sandbox uids. ` +
    `Start this one with another range, e.g. --uid-base ${free}, or stop the other one.`
  );
}

/** Claims the uids uidBase .. uidBase+slots-1 for this process, or throws UidRangeInUse naming the holder. */
export async function claimUidRange(uidBase: number, slots: number, configDir?: string): Promise<UidClaim> {
  const me: Holder = { pid: process.pid, uidBase, slots, ...(configDir ? { configDir } : {}) };
  const held: net.Server[] = [];
  const release = () => {
    for (const s of held.splice(0)) s.close();
  };
  for (let uid = uidBase; uid < uidBase + slots; uid++) {
    let got: net.Server | 'taken';
    try {
      got = await bind(uid, me);
    } catch (e) {
      release();
      throw e;
    }
    if (got === 'taken') {
      release();
      throw new UidRangeInUse(refusal(uid, me, await holderOf(uid)));
    }
    held.push(got);
  }
  return { release };
}
