import { ApiProblem, Unreachable } from '@judge/sdk';

/** A refusal the CLI makes itself (bad input, nothing found): printed as is, exit status 1. */
export class CliError extends Error {
  override name = 'CliError';
}

/** What went wrong, in one line for people: the server's detail, or why it could not be asked. */
export function describe(e: unknown): string {
  if (e instanceof ApiProblem) {
    const fieldsWrong = e.code === 'validation_failed' && e.errors ? Object.entries(e.errors).map(([k, v]) => `${k}: ${v.join(', ')}`) : [];
    return `${e.detail || e.code} (${e.status} ${e.code})${fieldsWrong.length ? ` [${fieldsWrong.join('; ')}]` : ''}`;
  }
  if (e instanceof Unreachable || e instanceof CliError) return e.message;
  return (e as Error)?.message ?? String(e);
}
