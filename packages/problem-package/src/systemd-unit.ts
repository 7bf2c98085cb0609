/**
 * What `judge install-service` and `judge-runner install-service` share: the words of a systemd
 * unit, and writing one without silently replacing another. Each command renders its own unit.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * One word of a command line as systemd reads it: `%` and `$` would be expanded, so they are
 * doubled; words with blanks or quotes are quoted.
 */
export function unitWord(word: string): string {
  const escaped = word.replace(/%/g, '%%').replace(/\$/g, '$$$$');
  return /[\s"'\\]/.test(escaped) ? `"${escaped.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : escaped;
}

/** `Environment=` lines for variables the service reads. */
export const environmentLines = (environment: Record<string, string>): string[] => Object.entries(environment).map(([k, v]) => `Environment=${unitWord(`${k}=${v}`)}`);

export class InstallServiceError extends Error {}

/** A user name a unit may run as. */
export function checkUserName(user: string): void {
  if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(user)) throw new InstallServiceError(`not a user name: ${user}`);
}

/**
 * Writes the unit unless a different one is there (then only with `force`). Answers whether the
 * file changed.
 */
export function writeUnit(path: string, text: string, force: boolean): 'written' | 'unchanged' | 'replaced' {
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  if (existing === text) return 'unchanged';
  if (existing !== undefined && !force) throw new InstallServiceError(`${path} exists and differs from the unit this would write: add --force to replace it`);
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text, { mode: 0o644 });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') throw new InstallServiceError(`cannot write ${path}: run it as root, or give --output`);
    throw e;
  }
  return existing === undefined ? 'written' : 'replaced';
}

/** The unit's name for systemctl: the file's name without `.service`. */
export const unitName = (path: string): string => basename(path).replace(/\.service$/, '');

/** The command that starts it now and at every boot; printed, never run. */
export const enableLine = (path: string): string => `systemctl daemon-reload && systemctl enable --now ${unitName(path)}`;
