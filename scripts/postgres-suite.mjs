// Which test files `pnpm test` (scripts/run-tests.mjs) runs a second time with every test server on
// PostgreSQL (JUDGE_TEST_DATABASE, packages/server/test/pg-cluster.ts): the server's files, the
// end-to-end files of test/ whose servers the test harness starts, and the browser tests (their
// `judge up` given a database of the cluster). docs/storage.md lists the rest.

/** Where the files of the PostgreSQL run are. */
export const POSTGRES_FILES = ['packages/server/test', 'test'];

/** Left out of the PostgreSQL run, each group for its reason. */
export const POSTGRES_EXCLUDED = [
  '**/node_modules/**',
  // read the sources, not a database: the same on either engine
  'packages/server/test/{architecture,floating-promises}.test.ts',
  'test/{code-shape,web-contract-imports,problems-staff-hints,judgectl-terminal-tasks}.test.ts',
  // start a PostgreSQL database of their own in either run (pg-cluster.ts): the SQLite run has them
  'packages/server/test/{postgres-migrations,postgres-app,shared-limits,storage-engines,schema-dialects,cluster,ops-migrate,shared-files,ops-postgres-backup}.test.ts',
  'test/{cluster-e2e,readme-cluster}.test.ts',
  // start `judge init`/`serve`/`up` or an installed service on a data directory of their own: SQLite
  'test/judge-*.test.ts',
  'test/{readme-contest,runner-install-service}.test.ts',
];
