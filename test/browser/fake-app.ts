import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const INDEX = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Judge</title>
<link rel="stylesheet" href="/assets/app-Bx7f3k2a.css">
<script type="module" src="/assets/app-Bx7f3k2a.js"></script>
</head>
<body><main id="root"><h1>Loading</h1></main></body>
</html>
`;

/**
 * What a built app does that the server's policy must allow: a module script and a stylesheet of
 * its own, style attributes set by script (as KaTeX and CodeMirror do), a fetch of the API, the
 * event socket, and a PDF of the files route in a frame. `?inline` and `?unlabelled` make it break
 * the policy and accessibility on purpose, to prove the checks notice.
 */
const APP_JS = `const root = document.getElementById('root');
const params = new URLSearchParams(location.search);
const line = (id, text) => {
  const p = document.createElement('p');
  p.id = id;
  p.textContent = text;
  root.append(p);
  return p;
};
root.replaceChildren();
const h1 = document.createElement('h1');
h1.textContent = 'Judge';
h1.style.letterSpacing = '0.05em';
root.append(h1);
line('path', location.pathname);
const health = line('health', 'asking');
fetch('/api/v1/health').then((r) => (health.textContent = 'health ' + r.status), () => (health.textContent = 'health failed'));
const socket = line('socket', 'connecting');
if (params.has('socket')) {
  const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/api/v1/ws');
  ws.onopen = () => (socket.textContent = 'open');
  ws.onclose = (e) => (socket.textContent = 'closed ' + e.code);
}
if (params.has('pdf')) {
  const frame = document.createElement('iframe');
  frame.id = 'pdf';
  frame.title = 'Statement';
  frame.src = params.get('pdf');
  frame.onload = () => frame.setAttribute('data-loaded', 'yes');
  root.append(frame);
}
if (params.has('inline')) {
  const s = document.createElement('script');
  s.textContent = 'window.inlineRan = true';
  document.head.append(s);
}
if (params.has('unlabelled')) {
  const b = document.createElement('button');
  b.append(document.createElement('span'));
  root.append(b);
}
document.body.setAttribute('data-ready', 'yes');
`;

const APP_CSS = 'body { font-family: sans-serif; margin: 2rem; color: #111; background: #fff; }\n';

/** A built app as Vite leaves one (index.html and hashed assets), in a fresh temporary directory. */
export function fakeBuiltApp(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'judge-fake-web-')), 'dist');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'app-Bx7f3k2a.js'), APP_JS);
  writeFileSync(join(dir, 'assets', 'app-Bx7f3k2a.css'), APP_CSS);
  return dir;
}

/** The smallest PDF Chromium's viewer opens: one blank page. */
export const TINY_PDF = `%PDF-1.4
1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj
2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj
3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 100]>> endobj
trailer <</Root 1 0 R>>
%%EOF
`;
