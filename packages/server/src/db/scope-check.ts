import { AsyncLocalStorage } from 'node:async_hooks';

type Kind = 'read' | 'write';

interface OpenScope {
  owner: object;
  kind: Kind;
  ended: boolean;
}

/**
 * A nested read or write that was not handed the scope it runs inside. On SQLite it would wait for
 * the open write (or a writer queued behind the open read) forever; on PostgreSQL it would run on
 * another connection that does not see the open write.
 */
export class UnscopedNesting extends Error {}

/**
 * The check behind `JUDGE_TX_SCOPE_CHECK=1` (set for the tests only, docs/storage.md "Rules for service
 * code"): follows which read or write of a transactor the running code is inside, through its awaits,
 * and refuses a read or write that begins inside an open one of the same transactor without being
 * given its scope. Following code through its awaits turns on promise hooks for the whole process and
 * makes every `await` cost about twice as much (bench/README.md), so the server never makes one.
 */
export class ScopeCheck {
  private readonly current = new AsyncLocalStorage<OpenScope>();

  /** A read or write of `owner` begins on its own: refused inside an open one. */
  unnested(owner: object, kind: Kind): void {
    const open = this.openOf(owner);
    if (open) throw new UnscopedNesting(`a ${kind} began inside an open ${open.kind} without being given its scope: pass it (docs/storage.md, "Rules for service code")`);
  }

  /** A read or write of `owner` was given a scope: it must be inside one that is still open, and a write inside a write. */
  given(owner: object, kind: Kind): void {
    const open = this.openOf(owner);
    if (!open) throw new UnscopedNesting(`a ${kind} was given the scope of a read or write that is not open here (it ended, or belongs to other work)`);
    if (kind === 'write' && open.kind === 'read') throw new UnscopedNesting('a write began inside a read: write from the start instead');
  }

  /** Runs `fn` as inside a read or write of `owner`; work it left behind no longer counts as inside once it ends. */
  async track<T>(owner: object, kind: Kind, fn: () => Promise<T>): Promise<T> {
    const open: OpenScope = { owner, kind, ended: false };
    try {
      return await this.current.run(open, fn);
    } finally {
      open.ended = true;
    }
  }

  private openOf(owner: object): OpenScope | undefined {
    const open = this.current.getStore();
    return open && open.owner === owner && !open.ended ? open : undefined;
  }
}
