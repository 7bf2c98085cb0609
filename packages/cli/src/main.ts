import { ops, type TokenResponse } from '@judge/contract';
import { ApiProblem, JudgeClient, Unreachable } from '@judge/sdk';
import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { credentialsPath, forgetCredentials, loadCredentials, saveCredentials, type Credentials } from './credentials.js';

class CliError extends Error {}

function remember(server: string, username: string, t: TokenResponse): void {
  saveCredentials({
    server,
    username,
    accessToken: t.accessToken,
    refreshToken: t.refreshToken,
    accessExpiresAt: new Date(Date.now() + t.expiresIn * 1000).toISOString(),
  });
}

/** A client signed in with the stored tokens, renewing the access token when it has lapsed. */
async function signedIn(): Promise<{ client: JudgeClient; creds: Credentials }> {
  const creds = loadCredentials();
  if (!creds) throw new CliError('not signed in: run `judgectl login --server URL --username NAME` first');
  const client = new JudgeClient({ baseUrl: creds.server, accessToken: creds.accessToken, refreshToken: creds.refreshToken });
  if (Date.parse(creds.accessExpiresAt) - Date.now() < 60_000) {
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

async function readPassword(file: string | undefined): Promise<string> {
  if (file) return readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  if (process.env.JUDGECTL_PASSWORD) return process.env.JUDGECTL_PASSWORD;
  if (!process.stdin.isTTY) throw new CliError('no password: give --password-file FILE or JUDGECTL_PASSWORD, or run on a terminal');
  const { password } = await import('@inquirer/prompts');
  return password({ message: 'Password:', mask: '*' });
}

const out = (json: boolean, value: unknown, text: string) => console.log(json ? JSON.stringify(value, null, 2) : text);

const program = new Command('judgectl')
  .description('Manage a judge from a terminal. Every command takes --json for scripts.')
  .version('0.1.0');

program
  .command('login')
  .description('Sign in and keep the tokens in the config directory (mode 0600)')
  .requiredOption('--server <url>', 'the judge, e.g. http://127.0.0.1:8080')
  .requiredOption('--username <name>', 'login name or email address')
  .option('--password-file <file>', 'read the password from this file (else JUDGECTL_PASSWORD, else asked)')
  .option('--json', 'print JSON')
  .action(async (o: { server: string; username: string; passwordFile?: string; json?: boolean }) => {
    let server: string;
    try {
      server = new URL(o.server).origin;
    } catch {
      throw new CliError(`not a URL: ${o.server}`);
    }
    const password = await readPassword(o.passwordFile);
    const client = new JudgeClient({ baseUrl: server });
    const t = await client.login(o.username, password);
    remember(server, o.username, t);
    const me = await client.call(ops.getAccount);
    out(!!o.json, { server, username: me.username, userId: me.userId }, `Signed in to ${server} as ${me.username}.`);
  });

program
  .command('logout')
  .description('End the session on the server and forget the stored tokens')
  .option('--json', 'print JSON')
  .action(async (o: { json?: boolean }) => {
    const creds = loadCredentials();
    if (!creds) return out(!!o.json, { signedIn: false }, 'Not signed in.');
    try {
      const { client } = await signedIn();
      await client.call(ops.logout);
    } catch (e) {
      // a session the server already ended is as good as ended
      if (!(e instanceof CliError) && !(e instanceof ApiProblem && e.status === 401)) throw e;
    } finally {
      forgetCredentials();
    }
    out(!!o.json, { signedIn: false }, `Signed out of ${creds.server}.`);
  });

program
  .command('whoami')
  .description('Show who the stored session belongs to, and its permissions')
  .option('--json', 'print JSON')
  .action(async (o: { json?: boolean }) => {
    const { client, creds } = await signedIn();
    const me = await client.call(ops.getAccount);
    const keys = await client.call(ops.myPermissions);
    out(!!o.json, { server: creds.server, ...me, permissions: keys }, `${me.username} on ${creds.server}\npermissions: ${keys.join(', ') || '(none)'}\ncredentials: ${credentialsPath()}`);
  });

program.parseAsync().catch((e: unknown) => {
  if (e instanceof ApiProblem) console.error(`judgectl: ${e.detail || e.code} (${e.status} ${e.code})`);
  else if (e instanceof Unreachable || e instanceof CliError) console.error(`judgectl: ${e.message}`);
  else if ((e as { name?: string }).name === 'ExitPromptError') process.exit(130);
  else console.error(`judgectl: ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
});
