import { lazy, useState, type ComponentType } from 'react';
import type { Preloadable } from './preloadable';

/**
 * A page in its own chunk, like React.lazy, but rendered without suspending when its chunk has
 * arrived before (a lazy component suspends on first render even then, and each suspension is a
 * fallback committed and a render started again; three nested frames made three).
 */
export function lazyPage(chunk: Preloadable<{ default: ComponentType }>): ComponentType {
  const Lazy = lazy(chunk.load);
  return function Page() {
    // chosen once per mount: changing from one to the other later would mount the page anew
    const [Loaded] = useState(() => chunk.loaded?.default);
    return Loaded ? <Loaded /> : <Lazy />;
  };
}
