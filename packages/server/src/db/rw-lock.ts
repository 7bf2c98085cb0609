/**
 * A fair readers-writer lock for one SQLite connection shared by concurrent async requests.
 * Readers share it; a writer has it alone. Waiters are served in arrival order, so a stream of
 * readers cannot starve a writer and a writer waits only for the readers already inside.
 */
export class ReadWriteLock {
  private readers = 0;
  private writing = false;
  private readonly waiting: { write: boolean; go: () => void }[] = [];

  /** Whether a writer holds the lock now. */
  get writerInside(): boolean {
    return this.writing;
  }

  async read<T>(fn: () => Promise<T>): Promise<T> {
    if (this.writing || this.waiting.length) await new Promise<void>((go) => this.waiting.push({ write: false, go }));
    else this.readers++;
    try {
      return await fn();
    } finally {
      this.readers--;
      this.wake();
    }
  }

  async write<T>(fn: () => Promise<T>): Promise<T> {
    if (this.writing || this.readers || this.waiting.length) await new Promise<void>((go) => this.waiting.push({ write: true, go }));
    else this.writing = true;
    try {
      return await fn();
    } finally {
      this.writing = false;
      this.wake();
    }
  }

  /** Lets in the next writer alone, or every reader up to the next writer; the counts are taken for them. */
  private wake(): void {
    if (this.writing) return;
    const next = this.waiting[0];
    if (!next) return;
    if (next.write) {
      if (this.readers) return;
      this.waiting.shift();
      this.writing = true;
      next.go();
      return;
    }
    while (this.waiting[0] && !this.waiting[0].write) {
      this.readers++;
      this.waiting.shift()!.go();
    }
  }
}
