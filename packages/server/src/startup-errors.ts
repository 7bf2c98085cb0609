import { ConfigError } from './config.js';
import { DataDirInUse, DataDirUnwritable } from './datadir.js';
import { NotInitialised } from './app.js';

/** Causes of a failed listen an operator can act on, by the error's code. */
const LISTEN: Record<string, (where: string, port: string) => string> = {
  EADDRINUSE: (where) => `${where} is already in use by another program: stop it, or start the judge on another port with --port (0 picks a free one)`,
  EACCES: (where, port) => `no permission to listen on ${where}${Number(port) < 1024 ? ' (ports below 1024 need root)' : ''}: choose another port with --port`,
  EADDRNOTAVAIL: (where) => `cannot listen on ${where}: that address is not one of this machine's (see --host)`,
};

/**
 * The one line `judge` prints for a failure at start that the operator can fix (a port in use, a
 * data directory it cannot write, a bad setting), or undefined for a fault of the judge itself,
 * which keeps its stack trace for the bug report.
 */
export function startupFailure(e: unknown): string | undefined {
  if (e instanceof ConfigError || e instanceof DataDirInUse || e instanceof DataDirUnwritable || e instanceof NotInitialised) return e.message;
  const err = e as NodeJS.ErrnoException & { address?: string; port?: number };
  const listen = err.code && err.syscall === 'listen' ? LISTEN[err.code] : undefined;
  if (listen) {
    const address = err.address ?? '?';
    const where = `${address.includes(':') ? `[${address}]` : address}:${err.port ?? '?'}`;
    return listen(where, String(err.port ?? ''));
  }
  if (err.code === 'ENOTFOUND' && err.syscall === 'getaddrinfo') return `cannot listen on ${(err as { hostname?: string }).hostname ?? 'that host'}: no such name or address (see --host)`;
  return undefined;
}
