import { ops } from '@judge/contract';
import { ApiProblem, JudgeClient } from '@judge/sdk';
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { remember, signedIn } from '../client.js';
import { credentialsPath, forgetCredentials, loadCredentials } from '../credentials.js';
import { CliError } from '../errors.js';
import { emit, type JsonOption } from '../output.js';
import { sub } from './common.js';
import { USER_AGENT } from '../version.js';

export async function readPassword(file: string | undefined): Promise<string> {
  if (file) return readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  if (process.env.JUDGECTL_PASSWORD) return process.env.JUDGECTL_PASSWORD;
  if (!process.stdin.isTTY) throw new CliError('no password: give --password-file FILE or JUDGECTL_PASSWORD, or run on a terminal');
  const { password } = await import('@inquirer/prompts');
  return password({ message: 'Password:', mask: '*' });
}

function secondFactor(o: { code?: string; recoveryCode?: string }): { twoFactorCode?: string; twoFactorRecoveryCode?: string } {
  if (o.code && o.recoveryCode) throw new CliError('give --code or --recovery-code, not both');
  return o.code ? { twoFactorCode: o.code.trim() } : o.recoveryCode ? { twoFactorRecoveryCode: o.recoveryCode.trim() } : {};
}

export function sessionCommands(program: Command): void {
  sub(program, 'login', 'Sign in and keep the tokens in the config directory (mode 0600)')
    .requiredOption('--server <url>', 'the judge, e.g. http://127.0.0.1:8080')
    .requiredOption('--username <name>', 'login name or email address')
    .option('--password-file <file>', 'read the password from this file (else JUDGECTL_PASSWORD, else asked)')
    .option('--code <digits>', 'the code of the authenticator app, for an account with two-factor sign-in (asked on a terminal when needed)')
    .option('--recovery-code <code>', 'one of the recovery codes instead (each works once)')
    .action(async (o: JsonOption & { server: string; username: string; passwordFile?: string; code?: string; recoveryCode?: string }) => {
      let server: string;
      try {
        server = new URL(o.server).origin;
      } catch {
        throw new CliError(`not a URL: ${o.server}`);
      }
      const password = await readPassword(o.passwordFile);
      const client = new JudgeClient({ baseUrl: server, userAgent: USER_AGENT });
      const t = await client.login(o.username, password, secondFactor(o)).catch(async (e: unknown) => {
        if (!(e instanceof ApiProblem && e.detail === 'RequiresTwoFactor' && !o.code && !o.recoveryCode && process.stdin.isTTY)) throw e;
        const { input } = await import('@inquirer/prompts');
        const code = await input({ message: 'Code from the authenticator app:' });
        return client.login(o.username, password, { twoFactorCode: code.trim() });
      });
      remember(server, o.username, t);
      const me = await client.call(ops.getAccount);
      emit(o, { server, username: me.username, userId: me.userId }, () => `Signed in to ${server} as ${me.username}.`);
    });

  sub(program, 'logout', 'End the session on the server and forget the stored tokens').action(async (o: JsonOption) => {
    const creds = loadCredentials();
    if (!creds) return emit(o, { signedIn: false }, () => 'Not signed in.');
    try {
      const { client } = await signedIn();
      await client.call(ops.logout);
    } catch (e) {
      // a session the server already ended is as good as ended
      if (!(e instanceof CliError) && !(e instanceof ApiProblem && e.status === 401)) throw e;
    } finally {
      forgetCredentials();
    }
    emit(o, { signedIn: false }, () => `Signed out of ${creds.server}.`);
  });

  sub(program, 'whoami', 'Show who the stored session belongs to, and its permissions').action(async (o: JsonOption) => {
    const { client, creds } = await signedIn();
    const me = await client.call(ops.getAccount);
    const keys = await client.call(ops.myPermissions);
    emit(
      o,
      { server: creds.server, ...me, permissions: keys },
      () => `${me.username} on ${creds.server}\npermissions: ${keys.join(', ') || '(none)'}\ncredentials: ${credentialsPath()}`,
    );
  });
}
