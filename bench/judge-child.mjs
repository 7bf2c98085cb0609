// The judge, built (packages/server/dist), in a process of its own so that what is measured is
// the server alone. argv[2]: JSON config overrides (e.g. `database`: several children on one
// PostgreSQL database); argv[3]: a directory the data directory's `files` links to (servers sharing
// one database share their files). Answers IPC: mem (after GC), cpu, stop.
import { startBenchApp } from './lib.mjs';

const extra = JSON.parse(process.argv[2] ?? '{}');
const filesDir = process.argv[3] || undefined;
const { app, cleanup } = await startBenchApp(extra, {}, { filesDir });

function settle() {
  for (let i = 0; i < 3; i++) globalThis.gc?.();
}

// a driver that died leaves no judge, data directory or database behind
let stopping;
const stop = () => (stopping ??= (async () => {
  await app.close();
  await cleanup();
  process.exit(0);
})());
process.on('disconnect', () => void stop());

process.on('message', async (m) => {
  if (m.cmd === 'mem') {
    settle();
    await new Promise((r) => setTimeout(r, 100));
    settle();
    process.send({ id: m.id, mem: process.memoryUsage(), sockets: app.hub.socketCount, gc: typeof globalThis.gc === 'function' });
  } else if (m.cmd === 'cpu') {
    process.send({ id: m.id, cpu: process.cpuUsage() });
  } else if (m.cmd === 'stop') {
    await stop();
  }
});
process.send({ ready: true, url: app.url });
