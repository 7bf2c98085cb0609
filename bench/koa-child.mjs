// A bare Koa server (the server package's own koa) answering GET /api/v1/account with a fixed
// JSON document, the baseline for bench/account-rps.mjs. argv[2]: the JSON to return.
import { serverRequire } from './lib.mjs';

const Koa = serverRequire('koa');
const body = JSON.parse(process.argv[2]);
const app = new Koa();
app.use((ctx) => {
  if (ctx.method === 'GET' && ctx.path === '/api/v1/account') ctx.body = body;
  else ctx.status = 404;
});
const server = app.listen(0, '127.0.0.1', () => process.send({ ready: true, url: `http://127.0.0.1:${server.address().port}` }));
process.on('message', (m) => {
  if (m.cmd === 'cpu') return process.send({ id: m.id, cpu: process.cpuUsage() });
  if (m.cmd !== 'stop') return;
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
