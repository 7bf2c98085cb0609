/** The run's stdin, stdout and stderr: files, the caller's fds or pipes, and how much went through them. */
import fs from 'node:fs';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { TAIL } from './host.js';
import type { Stdio } from './types.js';

/** Counts bytes passing through, keeps the tail, and stops passing data on at the limit. */
export class Meter extends Transform {
  bytes = 0;
  private tail: Buffer = Buffer.alloc(0);
  constructor(
    private readonly limit: number,
    private readonly onOver: () => void,
    private readonly keepTail: boolean,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    const before = this.bytes;
    this.bytes += chunk.length;
    if (this.keepTail) {
      const t = Buffer.concat([this.tail, chunk]);
      this.tail = t.length > TAIL ? t.subarray(t.length - TAIL) : t;
    }
    if (this.bytes > this.limit) {
      const room = Math.max(0, this.limit - before);
      if (room > 0) this.push(chunk.subarray(0, room));
      this.onOver();
      cb();
      return;
    }
    cb(null, chunk);
  }
  tailText(): string {
    return this.tail.toString('utf8');
  }
}

/** What one stdio entry became for the spawn, and how to measure it afterwards. */
export interface StdioTarget {
  stdio: 'pipe' | 'ignore' | number;
  /** fd we opened and close right after the spawn */
  ownFd?: number;
  path?: string;
  fd?: number;
  sizeBefore?: number;
}

export function prepareStdio(s: Stdio | undefined, write: boolean): StdioTarget {
  if (s === undefined || s === 'ignore') return { stdio: 'ignore' };
  if (s === 'pipe') return { stdio: 'pipe' };
  if ('path' in s) {
    const fd = fs.openSync(s.path, write ? 'w' : 'r', 0o600);
    return { stdio: fd, ownFd: fd, path: s.path };
  }
  let sizeBefore: number | undefined;
  try {
    const st = fs.fstatSync(s.fd);
    if (st.isFile()) sizeBefore = st.size;
  } catch {
    /* not a file */
  }
  return { stdio: s.fd, fd: s.fd, sizeBefore };
}

/** Bytes written to a file target, and its tail when asked for. */
export function measureFile(p: StdioTarget, wantTail: boolean): { bytes: number; tail?: string } | null {
  let fd: number;
  let start = 0;
  let close = false;
  if (p.path !== undefined) {
    try {
      fd = fs.openSync(p.path, 'r');
      close = true;
    } catch {
      return null;
    }
  } else if (p.fd !== undefined && p.sizeBefore !== undefined) {
    fd = p.fd;
    start = p.sizeBefore;
  } else return null;
  try {
    const size = fs.fstatSync(fd).size;
    const bytes = Math.max(0, size - start);
    if (!wantTail || bytes === 0) return { bytes };
    const from = Math.max(start, size - TAIL);
    const buf = Buffer.alloc(size - from);
    let n: number;
    try {
      n = fs.readSync(fd, buf, 0, buf.length, from);
    } catch {
      // the caller's fd is write-only: read the same file through /proc
      try {
        const rfd = fs.openSync(`/proc/self/fd/${fd}`, 'r');
        try {
          n = fs.readSync(rfd, buf, 0, buf.length, from);
        } finally {
          fs.closeSync(rfd);
        }
      } catch {
        return { bytes };
      }
    }
    return { bytes, tail: buf.subarray(0, n).toString('utf8') };
  } finally {
    if (close) fs.closeSync(fd);
  }
}

export function streamDone(s: Readable): Promise<void> {
  return new Promise((resolve) => {
    if (s.readableEnded || s.destroyed) return resolve();
    s.once('end', resolve);
    s.once('close', resolve);
    s.once('error', () => resolve());
  });
}
