import { Worker } from 'node:worker_threads';

/**
 * How late the machine itself runs this process's threads: a thread beside the event loop wakes
 * every 5 ms and writes how late each wake-up was, in absolute time. A poll that waited while this
 * thread also waited was held by the machine (other processes, a busy system), not by the event
 * loop; a poll held by the event loop finds this thread on time. Tests subtract one from the other.
 */
export class JitterProbe {
  private readonly buf = new SharedArrayBuffer(8 * 2 * 200_000);
  private readonly data = new Float64Array(this.buf);
  private readonly count = new Int32Array(new SharedArrayBuffer(4));
  private readonly worker: Worker;

  constructor() {
    const code = `
      const { workerData } = require('node:worker_threads');
      const data = new Float64Array(workerData.buf);
      const count = new Int32Array(workerData.count);
      let due = performance.timeOrigin + performance.now() + 5;
      const tick = () => {
        const now = performance.timeOrigin + performance.now();
        const i = Atomics.load(count, 0);
        if (i < data.length / 2) {
          data[2 * i] = now;
          data[2 * i + 1] = Math.max(0, now - due);
          Atomics.store(count, 0, i + 1);
        }
        due = now + 5;
        setTimeout(tick, 5);
      };
      setTimeout(tick, 5);`;
    this.worker = new Worker(code, { eval: true, workerData: { buf: this.buf, count: this.count.buffer } });
    this.worker.unref();
  }

  /** The latest wake-up of the probe between two absolute times (ms since the epoch, as performance.timeOrigin + now()). */
  lateness(from: number, to: number): number {
    const n = Atomics.load(this.count, 0);
    // wake-ups are written in time order: the first one at or after `from`, by halving
    let lo = 0;
    for (let hi = n; lo < hi; ) {
      const mid = (lo + hi) >> 1;
      if (this.data[2 * mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    let worst = 0;
    for (let i = lo; i < n && this.data[2 * i]! <= to + 5; i++) worst = Math.max(worst, this.data[2 * i + 1]!);
    return worst;
  }

  stop(): Promise<number> {
    return this.worker.terminate();
  }
}
