import type { TokenResponse } from '@judge/contract';
import { ApiProblem, JudgeClient } from '@judge/sdk';
import { forgetCredentials, loadCredentials, saveCredentials, type Credentials } from './credentials.js';
import { CliError } from './errors.js';
import { USER_AGENT } from './version.js';

export function remember(server: string, username: string, t: TokenResponse): void {
  saveCredentials({
    server,
    username,
    accessToken: t.accessToken,
    refreshToken: t.refreshToken,
    accessExpiresAt: new Date(Date.now() + t.expiresIn * 1000).toISOString(),
  });
}

/** A client signed in with the stored tokens, renewing the access token when it has lapsed (or is about to). */
export async function signedIn(): Promise<{ client: JudgeClient; creds: Credentials }> {
  const creds = loadCredentials();
  if (!creds) throw new CliError('not signed in: run `judgectl login --server URL --username NAME` first');
  const client = new JudgeClient({ baseUrl: creds.server, accessToken: creds.accessToken, refreshToken: creds.refreshToken, userAgent: USER_AGENT });
  // a long command (an import) must not outlive its token: renew well before the end
  if (Date.parse(creds.accessExpiresAt) - Date.now() < 10 * 60_000) {
    try {
      remember(creds.server, creds.username, await client.refresh());
    } catch (e) {
      if (e instanceof ApiProblem && e.status === 401) {
        forgetCredentials();
        throw new CliError('the stored session has ended: run `judgectl login` again');
      }
      throw e;
    }
  }
  return { client, creds: loadCredentials()! };
}

/** Just the client. */
export async function api(): Promise<JudgeClient> {
  return (await signedIn()).client;
}
