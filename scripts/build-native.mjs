#!/usr/bin/env node
// Builds the runner's sandbox launcher (packages/runner/native/*.c → judge-cell) with the system's
// C compiler, when the binary is missing or older than a source. Part of `pnpm build`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../packages/runner/native/', import.meta.url));
const sources = readdirSync(dir).filter((f) => f.endsWith('.c') || f.endsWith('.h'));
const bin = `${dir}judge-cell`;
const newest = Math.max(...sources.map((f) => statSync(dir + f).mtimeMs));
if (existsSync(bin) && statSync(bin).mtimeMs >= newest) process.exit(0);
const cc = process.env.CC || 'cc';
const units = sources.filter((f) => f.endsWith('.c')).map((f) => dir + f);
const r = spawnSync(cc, ['-O2', '-Wall', '-Wextra', '-o', bin, ...units], { stdio: 'inherit' });
if (r.error) {
  console.error(`build-native: cannot run the C compiler ${cc} (${r.error.message}): install one (apt-get install gcc)`);
  process.exit(1);
}
if (r.status !== 0) process.exit(r.status ?? 1);
