// One load generator of participants-load.mjs, in a process of its own so that the clients never
// share an event loop with the judge or with each other's timers. It is given participants (a
// cookie session each) and plays each one as a browser tab would: the event socket open all the
// time, the own submissions polled every `pollSeconds`, a problem opened every `openSeconds`, a
// submission every `submitSeconds`; each one's first action at a random moment of its period, so
// the load is even. Each participant carries the server it talks to (`base`). IPC: `open` (opens the sockets), `run` (warm-up, then the measured window;
// answers the figures), `stop`.
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { pool, serverRequire } from './lib.mjs';

const WebSocket = serverRequire('ws');
const sha256 = (s) => createHash('sha256').update(s).digest('hex');

let cfg;
const sockets = [];
/** Figures of the measured window; `on` is false during the warm-up. */
const m = { on: false, ms: { poll: [], open: [], submit: [] }, status: {}, errors: {}, frames: {}, verdictMs: [], socketCloses: 0, socketErrors: 0 };
/** Submissions waiting for their verdict frame: id → the moment the submit was answered. */
const awaiting = new Map();
const timers = new Set();
let seq = 0;

const count = (o, k) => (o[k] = (o[k] ?? 0) + 1);

function onFrame(raw) {
  const text = raw.toString();
  // the type without parsing every frame: frames are {"type":"...", ...}
  const type = text.slice(9, text.indexOf('"', 9));
  if (m.on) count(m.frames, type);
  if (type !== 'submissionStateChanged') return;
  const s = JSON.parse(text).data.submission;
  if (s.state !== 'completed') return;
  const at = awaiting.get(s.id);
  if (at === undefined) return;
  awaiting.delete(s.id);
  if (m.on) m.verdictMs.push(performance.now() - at);
}

function openSocket(p) {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${p.base.replace(/^http/, 'ws')}/api/v1/ws`, { headers: { cookie: p.cookie, origin: p.origin }, perMessageDeflate: false });
    let opened = false;
    ws.once('open', () => {
      opened = true;
      sockets.push(ws);
      resolve(true);
    });
    ws.once('unexpected-response', (_q, res) => {
      count(m.errors, `socket refused ${res.statusCode}`);
      resolve(false);
    });
    ws.on('error', (e) => {
      if (!opened) {
        count(m.errors, `socket open ${e.code ?? e.message}`);
        resolve(false);
      } else if (m.on) m.socketErrors++;
    });
    ws.on('close', () => {
      if (opened && m.on && !stopping) m.socketCloses++;
    });
    ws.on('message', onFrame);
  });
}

async function request(kind, p, path, init = {}) {
  const t0 = performance.now();
  try {
    const res = await fetch(`${p.base}/api/v1${path}`, { ...init, headers: { cookie: p.cookie, origin: p.origin, ...init.headers } });
    const text = await res.text();
    const ms = performance.now() - t0;
    if (m.on) {
      m.ms[kind].push(ms);
      if (!res.ok) count(m.status, `${kind} ${res.status}`);
    }
    return res.ok ? JSON.parse(text) : undefined;
  } catch (e) {
    if (m.on) count(m.errors, `${kind} ${e.cause?.code ?? e.code ?? e.message}`);
    return undefined;
  }
}

const actions = {
  poll: (p) => request('poll', p, `/activities/${cfg.slug}/submissions`),
  open: (p) => request('open', p, `/activities/${cfg.slug}/problems/${cfg.problems[Math.floor(Math.random() * cfg.problems.length)]}`),
  async submit(p) {
    const code = `# ${p.userId} ${++seq} ${Date.now()}\nprint(sum(map(int, input().split())))\n`;
    const form = new FormData();
    form.set('file', new Blob([code], { type: 'text/x-python' }), 'sum.py');
    form.set('sha256', sha256(code));
    form.set('props', '{"language":"python3"}');
    const problem = cfg.problems[Math.floor(Math.random() * cfg.problems.length)];
    const s = await request('submit', p, `/activities/${cfg.slug}/problems/${problem}/submissions`, { method: 'POST', body: form });
    if (s?.id) awaiting.set(s.id, performance.now());
  },
};

/** Runs `action` for `p` every `seconds`, the first time at a random moment of the first period. */
function every(seconds, action, p) {
  const loop = () => {
    const t = setTimeout(() => {
      timers.delete(t);
      loop();
      void actions[action](p);
    }, seconds * 1000);
    timers.add(t);
  };
  const first = setTimeout(() => {
    timers.delete(first);
    loop();
    void actions[action](p);
  }, Math.random() * seconds * 1000);
  timers.add(first);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let stopping = false;

process.on('message', async (msg) => {
  if (msg.cmd === 'open') {
    cfg = msg;
    // each participant talks to its own server (several servers on one database share the sessions)
    for (const p of cfg.people) p.origin = new URL(p.base).origin;
    const t0 = performance.now();
    const ok = await pool(cfg.people, 50, openSocket);
    process.send({ id: msg.id, opened: ok.filter(Boolean).length, failed: ok.filter((x) => !x).length, ms: performance.now() - t0, errors: m.errors });
  } else if (msg.cmd === 'run') {
    for (const p of cfg.people) {
      every(cfg.pollSeconds, 'poll', p);
      every(cfg.openSeconds, 'open', p);
      every(cfg.submitSeconds, 'submit', p);
    }
    await sleep(cfg.warmupSeconds * 1000);
    m.on = true;
    const t0 = performance.now();
    await sleep(cfg.seconds * 1000);
    m.on = false;
    const seconds = (performance.now() - t0) / 1000;
    for (const t of timers) clearTimeout(t);
    const open = sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length;
    process.send({ id: msg.id, seconds, open, ...m, pendingVerdicts: awaiting.size, cpu: process.cpuUsage() });
  } else if (msg.cmd === 'stop') {
    stopping = true;
    for (const ws of sockets) ws.terminate();
    process.exit(0);
  }
});
// a driver that died leaves no generator behind
process.on('disconnect', () => process.exit(0));
process.send({ ready: true, url: '' });
