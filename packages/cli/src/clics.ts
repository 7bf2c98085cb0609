import { Unreachable, type JudgeClient } from '@judge/sdk';
import { CliError } from './errors.js';
import { USER_AGENT } from './version.js';

/**
 * The judge's CLICS Contest API (`/api/clics`, docs/clics.md) is no operation of `/api/v1`, so the
 * SDK has no call for it: a plain GET with the CLI's bearer token, answered as the server says it
 * (the package must hold exactly what the API serves to the caller).
 */
export async function clicsGet(c: JudgeClient, path: string): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': USER_AGENT };
  if (c.accessToken) headers.authorization = `Bearer ${c.accessToken}`;
  let res: Response;
  try {
    res = await fetch(`${c.baseUrl}/api/clics${path}`, { headers });
  } catch (e) {
    throw new Unreachable(c.baseUrl, (e as { cause?: unknown }).cause ?? e);
  }
  if (!res.ok) {
    let message = res.statusText;
    try {
      message = ((await res.json()) as { message?: string }).message ?? message;
    } catch {
      // not the API's JSON error: the status text says enough
    }
    throw new CliError(`the CLICS API answered ${res.status} for /api/clics${path}: ${message}`);
  }
  return res.json();
}
