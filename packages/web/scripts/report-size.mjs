#!/usr/bin/env node
// Prints every built asset with its gzipped size, and fails when the JavaScript a first page load
// needs (index.html's module script and the chunks it preloads) exceeds the budget.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 250;
const dist = new URL('../dist/', import.meta.url).pathname;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = new Set([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]));

const kb = (n) => (n / 1024).toFixed(1);
const rows = [];
for (const name of readdirSync(join(dist, 'assets'))) {
  const bytes = readFileSync(join(dist, 'assets', name));
  rows.push({ name: `assets/${name}`, raw: statSync(join(dist, 'assets', name)).size, gz: gzipSync(bytes, { level: 9 }).length });
}
rows.sort((a, b) => b.gz - a.gz);
let initialGz = 0;
console.log('web app assets (gzipped; * = loaded by the first page):');
for (const r of rows) {
  const first = initial.has(r.name);
  if (first) initialGz += r.gz;
  console.log(`  ${first ? '*' : ' '} ${kb(r.gz).padStart(7)} KB  (${kb(r.raw).padStart(7)} KB raw)  ${r.name}`);
}
console.log(`initial JavaScript: ${kb(initialGz)} KB gzipped (budget ${BUDGET_KB} KB)`);
if (initialGz > BUDGET_KB * 1024) {
  console.error(`the initial JavaScript is over its budget of ${BUDGET_KB} KB gzipped`);
  process.exit(1);
}
