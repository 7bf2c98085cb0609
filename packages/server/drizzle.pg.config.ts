import { defineConfig } from 'drizzle-kit';

/** PostgreSQL's migrations, from its own table definitions (docs/storage.md, "PostgreSQL"). */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/pg-schema.ts',
  out: './drizzle-pg',
});
