import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(`./packages/${p}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    // tests run against the sources, so a stale build can never hide a failure
    alias: { '@judge/sdk/browser': fileURLToPath(new URL('./packages/sdk/src/browser.ts', import.meta.url)), '@judge/contract': src('contract'), '@judge/sdk': src('sdk'), '@judge/server': src('server'), '@judge/runner': src('runner'), '@judge/problem-package': src('problem-package') },
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts', 'packages/web/src/**/*.test.ts'],
    pool: 'forks',
    // every test builds its own app, data directory and sandbox, and nothing is mocked: test files
    // may share a worker's module cache (importing the server once per worker rather than once per
    // file), and half of the suite waits on sandboxes and sockets, so both cores of a small machine
    // are kept busy rather than the default of one fewer than the cores
    isolate: false,
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 30_000,
    // expect.poll's own default is 1 s: a page on a machine running both engines' suites took longer
    // to show what it then showed (the staff tabs); a poll that ends sooner passes as soon as it holds
    expect: { poll: { timeout: 10_000 } },
    // the transactor refuses a read or write begun inside an open one without its scope (src/db/scope-check.ts);
    // never set in production, where following the scope would slow every await of the process
    env: { JUDGE_TX_SCOPE_CHECK: '1' },
    hookTimeout: 30_000,
  },
});
