import { ops } from '@judge/sdk/browser';
import { call } from '../../../api/client';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The users typed, one per line or separated by commas: each once. */
export const namesOf = (typed: string) => [...new Set(typed.split(/[\s,;]+/).filter(Boolean))];

/** A user named by login or id, as judgectl resolves one: an id is taken as it is, a login looked up (administrators may). */
async function idOf(name: string, unknown: (name: string) => Error): Promise<string> {
  if (UUID.test(name)) return name;
  const found = await call(ops.lookupUsers, { query: { q: name } }).catch(() => []);
  const exact = found.find((u) => u.username.toLowerCase() === name.toLowerCase());
  if (!exact) throw unknown(name);
  return exact.id;
}

/** The ids of the users typed; a name nobody has (or that the reader may not look up) is refused in words before anything changes. */
export function idsOf(typed: string, unknown: (name: string) => Error): Promise<string[]> {
  return Promise.all(namesOf(typed).map((n) => idOf(n, unknown)));
}
