/** What the sandbox needs from the host: its tools, its limits, the read-only tree every box sees. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Bytes of stderr kept for messages. */
export const TAIL = 4096;
export const SANDBOX_PATH = '/usr/bin:/bin';

export function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

export function which(name: string, extra: string[] = []): string | null {
  const dirs = [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/bin', '/bin', '/usr/local/bin', ...extra];
  for (const d of dirs) {
    const p = path.join(d, name);
    if (isExecutable(p)) return p;
  }
  return null;
}

export function versionAtLeast(v: string, major: number, minor: number): boolean {
  const m = /(\d+)\.(\d+)/.exec(v);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return a > major || (a === major && b >= minor);
}

export function signalName(n: number): string | undefined {
  for (const [name, num] of Object.entries(os.constants.signals)) if (num === n) return name;
  return undefined;
}

/** The hard RLIMIT_STACK of this process, for the sandbox's RLIMIT_STACK (unlimited where allowed). */
export function stackLimit(root: boolean): string {
  if (root) return 'unlimited';
  const m = /^Max stack size\s+\S+\s+(\S+)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
  return !m || m[1] === 'unlimited' ? 'unlimited' : `${m[1]}:${m[1]}`;
}

/** The read-only host tree every sandbox sees: /usr, the merged-/usr links, the loader cache, the JDK config. */
export function hostRootArgs(): string[] {
  const a = ['--ro-bind', '/usr', '/usr'];
  for (const name of ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32']) {
    const p = `/${name}`;
    let st: fs.Stats;
    try {
      st = fs.lstatSync(p);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) a.push('--symlink', fs.readlinkSync(p), p);
    else if (st.isDirectory()) a.push('--ro-bind', p, p);
  }
  for (const f of ['/etc/ld.so.cache', '/etc/alternatives']) if (fs.existsSync(f)) a.push('--ro-bind', f, f);
  let etc: string[] = [];
  try {
    etc = fs.readdirSync('/etc');
  } catch {
    /* no /etc */
  }
  // the JDK's conf/ links into /etc/java-NN-openjdk
  for (const e of etc.sort()) if (/^java-\d+-openjdk$/.test(e)) a.push('--ro-bind', `/etc/${e}`, `/etc/${e}`);
  return a;
}

export async function removeTree(p: string): Promise<void> {
  try {
    await fs.promises.rm(p, { recursive: true, force: true });
  } catch {
    // a program may have left directories without write permission: open them up and retry
    const walk = (d: string): void => {
      try {
        fs.chmodSync(d, 0o700);
        for (const e of fs.readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) walk(path.join(d, e.name));
      } catch {
        /* ignore */
      }
    };
    walk(p);
    await fs.promises.rm(p, { recursive: true, force: true });
  }
}
