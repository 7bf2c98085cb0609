/**
 * The streams of a run whose stdio the caller drives (interactive problems): handed out at once,
 * bridged to the program's pipes once the cell names its ends, drained at the end.
 */
import net from 'node:net';
import { PassThrough, type Readable } from 'node:stream';
import { TAIL } from './host.js';
import { Meter, StderrKeeper, streamDone } from './stdio.js';
import type { RunSpec } from './types.js';

export class PipeSet {
  /** Where the caller writes a piped stdin. */
  readonly stdin: PassThrough | null;
  /** Counted stdout when it is a pipe: the meter stops the run at the output limit. */
  readonly outMeter: Meter | null;
  /** stderr as a stream, when the caller asked for a pipe (counted, never limited). */
  readonly errKeeper: StderrKeeper | null;
  private readonly sockets: net.Socket[] = [];

  constructor(spec: Pick<RunSpec, 'stdin' | 'stdout' | 'stderr' | 'stderrKeepBytes' | 'limits'>, onOutputLimit: () => void) {
    this.stdin = spec.stdin === 'pipe' ? new PassThrough() : null;
    this.stdin?.on('error', () => {});
    this.outMeter = spec.stdout === 'pipe' ? new Meter(spec.limits.outputBytes, onOutputLimit) : null;
    this.errKeeper = spec.stderr === 'pipe' ? new StderrKeeper(spec.stderrKeepBytes ?? TAIL, true) : null;
  }

  /**
   * Opens the cell's ends (`fds`, -1 where none) through `open` and bridges them to the streams;
   * `opened` then lets the cell drop its own ends.
   */
  bridge(fds: [number, number, number], open: (fd: number, forWriting: boolean) => number, opened: () => void): void {
    if (fds.every((fd) => fd < 0)) return;
    try {
      if (fds[0] >= 0 && this.stdin) {
        let fd: number | null = null;
        try {
          fd = open(fds[0], true);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ENXIO') throw e; // ENXIO: it stopped reading already
        }
        if (fd === null) this.stdin.resume();
        else this.stdin.pipe(this.socket(fd, false));
      }
      if (fds[1] >= 0 && this.outMeter) this.socket(open(fds[1], false), true).pipe(this.outMeter);
      if (fds[2] >= 0 && this.errKeeper) this.socket(open(fds[2], false), true).pipe(this.errKeeper);
    } finally {
      opened();
    }
  }

  /** Lets what is buffered reach the meters; the caller may not read, so not for long. */
  async drained(ms: number): Promise<void> {
    const streams: Readable[] = [this.outMeter, this.errKeeper].filter((s): s is Meter | StderrKeeper => s !== null);
    if (!streams.length) return;
    let t: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(streams.map((m) => streamDone(m))), new Promise((r) => (t = setTimeout(r, ms)))]);
    clearTimeout(t);
  }

  /** No pipe outlives the run. */
  destroy(): void {
    for (const s of this.sockets) s.destroy();
  }

  private socket(fd: number, readable: boolean): net.Socket {
    const sock = new net.Socket({ fd, readable, writable: !readable });
    sock.on('error', () => {});
    this.sockets.push(sock);
    return sock;
  }
}
