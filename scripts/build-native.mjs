#!/usr/bin/env node
// Builds the runner's sandbox launcher (packages/runner/native/judge-cell.c) with the system's C
// compiler, when the binary is missing or older than its source. Part of `pnpm build`.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../packages/runner/native/', import.meta.url));
const src = `${dir}judge-cell.c`;
const bin = `${dir}judge-cell`;
if (existsSync(bin) && statSync(bin).mtimeMs >= statSync(src).mtimeMs) process.exit(0);
const cc = process.env.CC || 'cc';
const r = spawnSync(cc, ['-O2', '-Wall', '-Wextra', '-o', bin, src], { stdio: 'inherit' });
if (r.error) {
  console.error(`build-native: cannot run the C compiler ${cc} (${r.error.message}): install one (apt-get install gcc)`);
  process.exit(1);
}
if (r.status !== 0) process.exit(r.status ?? 1);
