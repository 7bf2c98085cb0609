import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * A runner's configuration directory: `key.json` (the Ed25519 key, mode 0600), `runner.json` (the
 * server it registered with, its name and tags) and `cache/` (problem packages by SHA-256).
 */
export interface RunnerConfig {
  server: string;
  name: string;
  tags: string[];
  runnerId?: string;
  fingerprint?: string;
}

/** `--config-dir`, else JUDGE_RUNNER_CONFIG_DIR, else ~/.config/judge-runner. */
export function configDir(explicit?: string): string {
  return resolve(explicit ?? process.env.JUDGE_RUNNER_CONFIG_DIR ?? join(homedir(), '.config', 'judge-runner'));
}

export const keyPath = (dir: string) => join(dir, 'key.json');
export const cachePath = (dir: string) => join(dir, 'cache');
const configPath = (dir: string) => join(dir, 'runner.json');

export function loadConfig(dir: string): RunnerConfig | undefined {
  const p = configPath(dir);
  if (!existsSync(p)) return undefined;
  const doc = JSON.parse(readFileSync(p, 'utf8')) as Partial<RunnerConfig>;
  if (typeof doc.server !== 'string' || typeof doc.name !== 'string') throw new Error(`${p} is not a runner configuration (server and name are required)`);
  return { server: doc.server, name: doc.name, tags: Array.isArray(doc.tags) ? doc.tags.filter((t) => typeof t === 'string') : [], ...(doc.runnerId ? { runnerId: doc.runnerId } : {}), ...(doc.fingerprint ? { fingerprint: doc.fingerprint } : {}) };
}

export function saveConfig(dir: string, c: RunnerConfig): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(configPath(dir), `${JSON.stringify(c, null, 2)}\n`, { mode: 0o600 });
  chmodSync(configPath(dir), 0o600);
}
