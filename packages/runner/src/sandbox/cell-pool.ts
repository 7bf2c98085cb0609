/**
 * The sandbox's cells, reused: a run takes an idle cell, and gives it back when its processes are
 * gone; the cell is reset (off the event loop) before another run may take it. A cell whose
 * launcher died or whose run went wrong is thrown away. Cells are made on demand, so there are
 * as many as runs ever went on at once, plus the ones being reset.
 */
import { Cell } from './cell.js';
import type { CgroupBackend, CgroupCell } from './cgroup-common.js';
import { SandboxError } from './errors.js';

export interface Lease {
  cell: Cell;
  cg: CgroupCell | null;
}

export class CellPool {
  private readonly idle: Lease[] = [];
  private readonly all = new Set<Lease>();
  private readonly pending = new Set<Promise<unknown>>();
  private closed = false;

  constructor(private readonly backend: CgroupBackend) {}

  /** An idle cell, or a new one. */
  async acquire(): Promise<Lease> {
    if (this.closed) throw new SandboxError('sandbox closed');
    for (;;) {
      const lease = this.idle.pop();
      if (!lease) break;
      if (lease.cell.alive) return lease;
      this.destroy(lease);
    }
    return this.create();
  }

  /** Gives a cell back: reset for the next run when it is sound, else thrown away. */
  release(lease: Lease, sound: boolean): void {
    if (this.closed || !sound || !lease.cell.alive || lease.cg?.reusable === false) {
      this.destroy(lease);
      // a backend whose cells serve one run each: the next one is made now, not when it is needed
      if (!this.closed && lease.cg?.reusable === false) this.warm(1);
      return;
    }
    const reset = (lease.cg?.reset() ?? Promise.resolve()).then(
      () => {
        if (this.closed || !lease.cell.alive) this.destroy(lease);
        else this.idle.push(lease);
      },
      () => this.destroy(lease),
    );
    this.track(reset);
  }

  /** Makes cells ahead of the first runs, so that none of them waits for one. */
  warm(count: number): void {
    for (let i = 0; i < count; i++) {
      this.track(
        this.create().then(
          (lease) => this.release(lease, true),
          () => {},
        ),
      );
    }
  }

  /** Kills every cell and removes its cgroups. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.pending]);
    for (const lease of [...this.all]) this.destroy(lease);
    await Promise.all([...this.pending]);
  }

  /** For process exit: the launchers are killed, the cgroups left to the next runner's sweep. */
  closeSync(): void {
    this.closed = true;
    for (const lease of this.all) lease.cell.close();
  }

  private async create(): Promise<Lease> {
    const cg = this.backend.createCell();
    let cell: Cell;
    try {
      cell = await Cell.start(cg?.join ?? []);
    } catch (e) {
      cg?.remove();
      throw e;
    }
    const lease: Lease = { cell, cg };
    this.all.add(lease);
    try {
      await cg?.reset();
    } catch (e) {
      this.destroy(lease);
      throw e;
    }
    if (this.closed) {
      this.destroy(lease);
      throw new SandboxError('sandbox closed');
    }
    return lease;
  }

  private destroy(lease: Lease): void {
    if (!this.all.delete(lease)) return;
    const i = this.idle.indexOf(lease);
    if (i >= 0) this.idle.splice(i, 1);
    this.track(
      lease.cell.close().then(() => {
        try {
          lease.cg?.remove();
        } catch {
          /* swept by the next runner */
        }
      }),
    );
  }

  private track(p: Promise<unknown>): void {
    const q = p.catch(() => {});
    this.pending.add(q);
    void q.finally(() => this.pending.delete(q));
  }
}
