import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface Credentials {
  server: string;
  username: string;
  accessToken: string;
  refreshToken: string;
  /** When the access token lapses; the refresh token renews it. */
  accessExpiresAt: string;
}

/** `$JUDGECTL_CONFIG_DIR`, else `$XDG_CONFIG_HOME/judgectl`, else `~/.config/judgectl`. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.JUDGECTL_CONFIG_DIR || join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'judgectl');
}

const file = () => join(configDir(), 'credentials.json');

export function loadCredentials(): Credentials | undefined {
  if (!existsSync(file())) return undefined;
  return JSON.parse(readFileSync(file(), 'utf8')) as Credentials;
}

/** Written readable by the owner only: the file holds live tokens. */
export function saveCredentials(c: Credentials): void {
  mkdirSync(dirname(file()), { recursive: true, mode: 0o700 });
  writeFileSync(file(), `${JSON.stringify(c, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file(), 0o600);
}

export function forgetCredentials(): void {
  rmSync(file(), { force: true });
}

export function credentialsPath(): string {
  return file();
}
