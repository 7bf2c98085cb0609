import { InvalidArgumentError, type Command } from 'commander';

/** A subcommand that takes --json like every other. */
export function sub(parent: Command, spec: string, description: string): Command {
  return parent.command(spec).description(description).option('--json', 'print JSON instead of a table');
}

/** Parses a whole number argument or option, refusing anything else. */
export function int(v: string): number {
  if (!/^[-+]?\d+$/.test(v.trim())) throw new InvalidArgumentError('not a whole number.');
  return Number(v);
}

/** Parses a positive whole number. */
export function positive(v: string): number {
  const n = int(v);
  if (n < 1) throw new InvalidArgumentError('must be at least 1.');
  return n;
}
