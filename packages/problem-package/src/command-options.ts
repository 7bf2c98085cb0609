/**
 * Option parsers the server's and the runner's commands share (`judge up`, `judge install-service`,
 * `judge-runner start`, `judge-runner install-service`): each refuses a bad value with commander's
 * InvalidArgumentError, so commander prints the option, the reason, and exits before anything runs.
 */
import { InvalidArgumentError } from 'commander';

/** A whole number from `min` to `max`; refused as "`what` from min to max", e.g. "a uid from 1000 to 65000". */
export function wholeNumber(min: number, max: number, what: string): (v: string) => number {
  return (v: string): number => {
    const n = Number(v);
    if (!/^\d+$/.test(v.trim()) || n < min || n > max) throw new InvalidArgumentError(`${what} from ${min} to ${max}`);
    return n;
  };
}

function parseHttpUrl(v: string): URL {
  try {
    const u = new URL(v);
    if (u.protocol === 'http:' || u.protocol === 'https:') return u;
  } catch {
    /* refused below */
  }
  throw new InvalidArgumentError(`not an http(s) URL: ${v}`);
}

/** An http(s) URL, kept as given (a public URL may have a path). */
export const httpUrl = (v: string): string => (parseHttpUrl(v), v);

/** An http(s) URL reduced to its origin: a judge's address, whatever path was pasted after it. */
export const httpOrigin = (v: string): string => parseHttpUrl(v).origin;

/** A parser that throws plain errors, made an option parser: its message becomes commander's refusal. */
export function optionParser<T>(parse: (v: string) => T): (v: string) => T {
  return (v: string): T => {
    try {
      return parse(v);
    } catch (e) {
      throw new InvalidArgumentError((e as Error).message);
    }
  };
}
