/** The run's stdin, stdout and stderr: files, the caller's fds or pipes, and how much went through them. */
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { TAIL } from './host.js';

/** Counts bytes passing through and stops passing data on at the limit. */
export class Meter extends Transform {
  bytes = 0;
  constructor(
    private readonly limit: number,
    private readonly onOver: () => void,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    const before = this.bytes;
    this.bytes += chunk.length;
    if (this.bytes > this.limit) {
      const room = Math.max(0, this.limit - before);
      if (room > 0) this.push(chunk.subarray(0, room));
      this.onOver();
      cb();
      return;
    }
    cb(null, chunk);
  }
}

/**
 * stderr is not output: it is counted and its first `headBytes` and last TAIL bytes are kept (for
 * logs and runtime messages), the rest dropped; it never ends a run. With `passOn` the data also
 * flows on to a caller that reads it.
 */
export class StderrKeeper extends Transform {
  bytes = 0;
  private head: Buffer[] = [];
  private headLength = 0;
  private tail: Buffer = Buffer.alloc(0);
  constructor(
    private readonly headBytes: number,
    private readonly passOn: boolean,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.headLength < this.headBytes) {
      const part = chunk.subarray(0, this.headBytes - this.headLength);
      this.head.push(Buffer.from(part));
      this.headLength += part.length;
    }
    if (chunk.length >= TAIL) this.tail = Buffer.from(chunk.subarray(chunk.length - TAIL));
    else {
      const t = Buffer.concat([this.tail, chunk]);
      this.tail = t.length > TAIL ? t.subarray(t.length - TAIL) : t;
    }
    cb(null, this.passOn ? chunk : undefined);
  }
  /** A keeper of what the cell kept of a run's stderr. */
  static kept(head: Buffer, tail: Buffer, bytes: number): StderrKeeper {
    const k = new StderrKeeper(head.length, false);
    k.bytes = bytes;
    k.head = [head];
    k.headLength = head.length;
    k.tail = tail;
    return k;
  }
  headText(): string {
    return Buffer.concat(this.head).toString('utf8');
  }
  tailText(): string {
    return this.tail.toString('utf8');
  }
  /** What a stderr file gets: the head, and when more was written, how much was left out and the tail. */
  keptText(): string {
    const head = Buffer.concat(this.head);
    if (this.bytes <= head.length) return head.toString('utf8');
    const rest = this.bytes - head.length;
    const tail = this.tail.subarray(Math.max(0, this.tail.length - rest));
    const dropped = rest - tail.length;
    return `${head.toString('utf8')}${dropped > 0 ? `\n… (${dropped} bytes of stderr left out)\n` : ''}${tail.toString('utf8')}`;
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
