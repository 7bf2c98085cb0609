import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(`./packages/${p}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    // tests run against the sources, so a stale build can never hide a failure
    alias: { '@judge/contract': src('contract'), '@judge/sdk': src('sdk'), '@judge/server': src('server'), '@judge/runner': src('runner'), '@judge/problem-package': src('problem-package') },
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
