import { randomBytes } from 'node:crypto';
import { chmodSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { AppDeps } from '../services.js';
import { OpsError } from './errors.js';
import { setPassword } from './password.js';

/**
 * The running server's local door for the offline commands. The server holds its database with an
 * exclusive SQLite lock, so while it runs no other process can read it: `judge backup`, `judge
 * doctor` and `judge reset-password` ask the server through this Unix socket instead (mode 0600,
 * so only the account that owns the data directory, which can read the database anyway, gets in).
 */
export const CONTROL_SOCKET = 'control.sock';

export type ControlRequest = { op: 'ping' } | { op: 'snapshot' } | { op: 'resetPassword'; username: string; password: string };
export type ControlReply = { ok: true; path?: string; userId?: string; username?: string; sessionsEnded?: number } | { ok: false; error: string };

/** Where a snapshot goes: beside the uploads, whose leftovers the retention worker already removes after an hour. */
export function snapshotPath(incomingDir: string): string {
  return join(incomingDir, `snapshot-${randomBytes(8).toString('hex')}.db`);
}

async function answer(deps: AppDeps, incomingDir: string, req: ControlRequest): Promise<ControlReply> {
  if (req.op === 'ping') return { ok: true };
  if (req.op === 'snapshot') {
    const path = snapshotPath(incomingDir);
    // better-sqlite3 copies in steps between other work, and the server's own writes during the
    // copy are carried into it: the file is the database as it was when the copy finished
    await deps.sqlite.backup(path);
    return { ok: true, path };
  }
  if (req.op === 'resetPassword') return { ok: true, ...(await setPassword(deps, req.username, req.password)) };
  return { ok: false, error: 'unknown request' };
}

/** Listens on DATA_DIR/control.sock; a socket that cannot be opened is logged, and the server runs on without it. */
export async function startControlSocket(deps: AppDeps, incomingDir: string): Promise<{ close(): Promise<void> }> {
  const path = join(deps.dataDir, CONTROL_SOCKET);
  // a socket file left by a server that died: the data directory lock says it is ours now
  rmSync(path, { force: true });
  const server: Server = createServer((conn) => {
    let buf = '';
    conn.on('error', () => conn.destroy());
    conn.on('data', (d: Buffer) => {
      buf += d.toString();
      // a request is one short line: anything longer is not one of ours
      if (buf.length > 65_536) return void conn.destroy();
      if (!buf.includes('\n')) return;
      const line = buf.slice(0, buf.indexOf('\n'));
      buf = '';
      let req: ControlRequest;
      try {
        req = JSON.parse(line) as ControlRequest;
      } catch {
        conn.end(`${JSON.stringify({ ok: false, error: 'not JSON' })}\n`);
        return;
      }
      answer(deps, incomingDir, req).then(
        (r) => conn.end(`${JSON.stringify(r)}\n`),
        (e: unknown) => {
          if (!(e instanceof OpsError)) deps.log.error({ err: e, op: req.op }, 'control request failed');
          conn.end(`${JSON.stringify({ ok: false, error: (e as Error).message })}\n`);
        },
      );
    });
  });
  const opened = await new Promise<boolean>((resolve) => {
    server.once('error', (e) => {
      deps.log.warn({ err: e, path }, 'no control socket: judge backup, doctor and reset-password need this server stopped');
      resolve(false);
    });
    server.listen(path, () => resolve(true));
  });
  if (opened) chmodSync(path, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        if (!opened) return resolve();
        server.close(() => resolve());
      }),
  };
}

/**
 * Sends one request to the server running on `dataDir`; undefined when none answers there (no
 * socket, or one a dead server left), so the caller may open the database itself.
 */
export function askServer(dataDir: string, req: ControlRequest): Promise<ControlReply | undefined> {
  return new Promise((resolve, reject) => {
    const conn = createConnection(join(dataDir, CONTROL_SOCKET));
    let buf = '';
    let connected = false;
    conn.on('connect', () => {
      connected = true;
      conn.write(`${JSON.stringify(req)}\n`);
    });
    conn.on('data', (d: Buffer) => (buf += d.toString()));
    conn.on('end', () => {
      try {
        resolve(JSON.parse(buf) as ControlReply);
      } catch {
        reject(new OpsError('the running judge server gave no answer on its control socket'));
      }
    });
    conn.on('error', (e: NodeJS.ErrnoException) => {
      if (!connected && ['ENOENT', 'ECONNREFUSED', 'ENOTSOCK'].includes(e.code ?? '')) resolve(undefined);
      else reject(new OpsError(`cannot talk to the judge server on ${dataDir}: ${e.message}`));
    });
  });
}

/** The server's answer, or its refusal as an OpsError. */
export function unwrap(reply: ControlReply): Extract<ControlReply, { ok: true }> {
  if (!reply.ok) throw new OpsError(reply.error);
  return reply;
}
