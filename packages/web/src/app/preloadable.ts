/**
 * A chunk of the app loaded on demand that can also be asked for ahead of its first render
 * (staffPrefetch.ts does, for the page opened by its address). Once it has arrived, `loaded` holds
 * it, and lazyPage renders it at once instead of suspending for a promise already kept.
 */
export interface Preloadable<M> {
  load(): Promise<M>;
  /** The module, once it has arrived. */
  readonly loaded: M | undefined;
}

export function preloadable<M>(importer: () => Promise<M>): Preloadable<M> {
  let pending: Promise<M> | undefined;
  let loaded: M | undefined;
  return {
    load() {
      pending ??= importer().then(
        (m) => (loaded = m),
        (e: unknown) => {
          // a failed fetch (the network, a new build) may succeed when asked again
          pending = undefined;
          throw e;
        },
      );
      return pending;
    },
    get loaded() {
      return loaded;
    },
  };
}
