// The judge, built (packages/server/dist), in a process of its own so that what is measured is
// the server alone. argv[2]: JSON config overrides. Answers IPC: mem (after GC), stop.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initDataDir, loadConfig, settingsTable, startApp } from '../packages/server/dist/index.js';
import { ADMIN_PASSWORD } from './lib.mjs';

const extra = JSON.parse(process.argv[2] ?? '{}');
// cheap password hashing: the benchmarks measure requests and sockets, not Argon2
const keys = new Set(settingsTable().map((r) => r.key));
const memKey = keys.has('auth.argon2MemoryKiB') ? 'argon2MemoryKiB' : 'argon2MemoryKib';
const overrides = {
  host: '127.0.0.1',
  port: 0,
  logLevel: 'warn',
  ...extra,
  limits: { requestsPerMinute: 0, ...extra.limits },
  auth: { [memKey]: 1024, argon2Iterations: 1, loginAttemptsPerMinute: 1_000_000, ...extra.auth },
};
const dataDir = mkdtempSync(join(tmpdir(), 'judge-bench-'));
const config = loadConfig(dataDir, overrides, {});
await initDataDir(dataDir, config, async () => ADMIN_PASSWORD);
const app = await startApp({ dataDir, config });

function settle() {
  for (let i = 0; i < 3; i++) globalThis.gc?.();
}

process.on('message', async (m) => {
  if (m.cmd === 'mem') {
    settle();
    await new Promise((r) => setTimeout(r, 100));
    settle();
    process.send({ id: m.id, mem: process.memoryUsage(), sockets: app.hub.socketCount, gc: typeof globalThis.gc === 'function' });
  } else if (m.cmd === 'cpu') {
    process.send({ id: m.id, cpu: process.cpuUsage() });
  } else if (m.cmd === 'stop') {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
});
process.send({ ready: true, url: app.url });
