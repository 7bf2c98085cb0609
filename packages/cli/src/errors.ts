import { ApiProblem, Unreachable } from '@judge/sdk';

/** A refusal the CLI makes itself (bad input, nothing found): printed as is, exit status 1. */
export class CliError extends Error {
  override name = 'CliError';
}

/**
 * A sign-in the server refused, said in words: its `detail` is a bare code such as Failed (a rate
 * limit, 429, already says in words how long to wait).
 */
function loginRefusal(e: ApiProblem): string | undefined {
  if (e.status !== 401 || !['Failed', 'LockedOut', 'NotAllowed', 'RequiresTwoFactor'].includes(e.detail)) return undefined;
  const said = `${e.detail} (${e.status} ${e.code})`;
  if (e.detail === 'Failed') return `wrong username or password: ${said}`;
  if (e.detail === 'LockedOut') return `the account is locked after too many wrong passwords (or blocked by an administrator): wait for the lock to end (15 minutes unless the server is set otherwise) or ask an administrator: ${said}`;
  if (e.detail === 'NotAllowed') return `the account may not sign in (expired, or its email address is not confirmed): ${said}`;
  return `the account has two-factor sign-in: give --code with the authenticator's code (or --recovery-code): ${said}`;
}

/** What went wrong, in one line for people: the server's detail, or why it could not be asked. */
export function describe(e: unknown): string {
  if (e instanceof ApiProblem) {
    const login = loginRefusal(e);
    if (login) return login;
    const fieldsWrong = e.code === 'validation_failed' && e.errors ? Object.entries(e.errors).map(([k, v]) => `${k}: ${v.join(', ')}`) : [];
    return `${e.detail || e.code} (${e.status} ${e.code})${fieldsWrong.length ? ` [${fieldsWrong.join('; ')}]` : ''}`;
  }
  if (e instanceof Unreachable || e instanceof CliError) return e.message;
  return (e as Error)?.message ?? String(e);
}

/**
 * A failure as `--json` prints it on standard error: one object, `error` holding `status` (the HTTP
 * status, null for a failure of judgectl's own), `code` (the server's error code, else one of
 * usage, unreachable, refused, internal), `detail` (the human line) and, from the server only,
 * `problem`: its problem document as received.
 */
export interface JsonFailure {
  error: { status: number | null; code: string; detail: string; problem?: Record<string, unknown> };
}

export function jsonFailure(e: unknown): JsonFailure {
  if (e instanceof ApiProblem) return { error: { status: e.status, code: e.code, detail: describe(e), problem: { ...e.document } } };
  const code = e instanceof Unreachable ? 'unreachable' : e instanceof CliError ? 'refused' : 'internal';
  return { error: { status: null, code, detail: describe(e) } };
}

/** The usage error commander prints (`error: unknown option ...`), as a --json failure. */
export function usageFailure(message: string): JsonFailure {
  return { error: { status: null, code: 'usage', detail: message.trim().replace(/^error: /, '') } };
}

/** The help text that documents the failure shape (kept beside it so the two agree). */
export const JSON_FAILURE_HELP = [
  'With --json, a failure prints one JSON object on standard error and exits non-zero:',
  '  {"error": {"status": 409, "code": "problem.attached", "detail": "...", "problem": {...}}}',
  'status is the HTTP status (null when judgectl itself refused: a bad option, an unreachable server, not signed in),',
  'code the server\'s error code (else usage, unreachable, refused or internal), detail the human line, and',
  'problem the server\'s problem document as received (only when the server answered).',
].join('\n');

/** Prints a failure (as JSON with --json) and exits 1. */
export function fail(e: unknown, json: boolean): never {
  const known = e instanceof Error && ['ApiProblem', 'Unreachable', 'CliError'].includes(e.name);
  if (json) process.stderr.write(`${JSON.stringify(jsonFailure(e))}\n`);
  else process.stderr.write(`judgectl: ${known ? describe(e) : ((e as Error).stack ?? String(e))}\n`);
  process.exit(1);
}
