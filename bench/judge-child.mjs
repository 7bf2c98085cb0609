// The judge, built (packages/server/dist), in a process of its own so that what is measured is
// the server alone. argv[2]: JSON config overrides. Answers IPC: mem (after GC), stop.
import { rmSync } from 'node:fs';
import { startBenchApp } from './lib.mjs';

const extra = JSON.parse(process.argv[2] ?? '{}');
const { app, dataDir } = await startBenchApp(extra);

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
