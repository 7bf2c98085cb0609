import { execFileSync } from 'node:child_process';

/**
 * Every message that tells someone to run a command with a flag must name a flag that command
 * accepts: these read a command's flags from its own `--help` (the built launcher, as a person
 * runs it) and the flags a message names.
 */

/** The long flags `file ...args --help` lists, `--no-runner` included as written. */
export function helpFlags(file: string, args: string[]): Set<string> {
  const help = execFileSync(file, [...args, '--help'], { encoding: 'utf8' });
  return new Set([...help.matchAll(/^\s+(?:-\w, )?(--[a-z][a-z0-9-]*)/gm)].map((m) => m[1]!));
}

/** The long flags a text names (`--runner-uid-base 60002` → `--runner-uid-base`). */
export function namedFlags(text: string): string[] {
  return [...new Set([...text.matchAll(/(?:^|[^\w-])(--[a-z][a-z0-9-]*)/g)].map((m) => m[1]!))];
}

/** The flags of a text that the command does not accept. */
export function unknownFlags(text: string, accepted: Set<string>): string[] {
  return namedFlags(text).filter((f) => !accepted.has(f));
}
