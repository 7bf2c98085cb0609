/**
 * The system-call filter is one table (native/seccomp.c) and docs/runners-and-sandbox.md tells users what it
 * refuses: every call of the table must be named there, and every entry must say why.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const source = fs.readFileSync(fileURLToPath(new URL('../native/seccomp.c', import.meta.url)), 'utf8');
const readme = fs.readFileSync(fileURLToPath(new URL('../../../docs/runners-and-sandbox.md', import.meta.url)), 'utf8');
const table = source.slice(source.indexOf('static const struct entry table[]'), source.indexOf('};', source.indexOf('static const struct entry table[]')));
/** Each entry: its call and its reason (the string after the argument index). */
const entries = [...table.matchAll(/^\s+E\((\w+), (\w+), (\w+), (\d), "((?:[^"\\]|\\.)*)"/gm)].map((m) => ({ call: m[1]!, why: m[5]! }));

describe('the system-call filter table', () => {
  it('has the calls the probe used and says why for each entry', () => {
    expect(entries.length).toBeGreaterThan(60);
    for (const call of ['ptrace', 'process_vm_readv', 'pidfd_getfd', 'perf_event_open', 'bpf', 'keyctl', 'mount', 'unshare', 'setns']) {
      expect(entries.map((e) => e.call)).toContain(call);
    }
    for (const e of entries) expect(e.why.length, e.call).toBeGreaterThan(10);
  });

  it('is what docs/runners-and-sandbox.md says the sandbox refuses', () => {
    const missing = [...new Set(entries.map((e) => e.call))].filter((call) => !readme.includes(`\`${call}\``));
    expect(missing).toEqual([]);
  });
});
