import type { Grant } from '@judge/contract';
import { fullName, readClassList, sortAgainst, type ClassListProblem, type Existing, type ImportRow } from '@judge/sdk/browser';
import { fetchAllUsers } from './queries';

/** What importing a class list will do, worked out before anything changes. */
export interface Plan {
  fileName: string;
  /** Accounts to create (and enrol as participants). */
  fresh: ImportRow[];
  /** Existing accounts that are not members yet: enrolled, keeping their passwords. */
  enrol: Existing[];
  /** Existing accounts already in the activity: left as they are. */
  members: Existing[];
  /** Lines that clash with somebody else's account: nothing is done while there are any. */
  faults: string[];
}

export type Planned = { ok: true; plan: Plan } | { ok: false; fileName: string; problem: ClassListProblem };

/**
 * Reads a class list chosen in the browser (as judgectl reads it: @judge/sdk) and sorts it against
 * every account and the activity's members, as `judgectl users import --enrol-existing` does.
 */
export async function planClassList(file: File, members: Grant[]): Promise<Planned> {
  const read = readClassList(new Uint8Array(await file.arrayBuffer()));
  if (!read.ok) return { ok: false, fileName: file.name, problem: read.problem };
  const sorted = sortAgainst(read.list.rows, await fetchAllUsers(), new Set(members.map((g) => g.userId)));
  return {
    ok: true,
    plan: {
      fileName: file.name,
      fresh: sorted.fresh,
      enrol: sorted.existing.filter((e) => !e.member),
      members: sorted.existing.filter((e) => e.member),
      faults: sorted.faults,
    },
  };
}

export const rowName = (r: ImportRow) => fullName(r);

/** Which words a plan's button and its report take: only new accounts, only existing ones, or both. */
export function planKind(created: number, enrolled: number): 'create' | 'enrol' | 'both' {
  return enrolled === 0 ? 'create' : created === 0 ? 'enrol' : 'both';
}
