import { ops, type Activity, type Page, type Problem, type Runner, type Series } from '@judge/contract';
import { ApiProblem, type JudgeClient } from '@judge/sdk';
import { CliError } from './errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const isId = (s: string) => UUID.test(s);

/** Every item of a paged list, fetched 200 at a time. */
export async function allPages<T>(fetch: (page: number, pageSize: number) => Promise<Page<T>>): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const p = await fetch(page, 200);
    out.push(...p.items);
    if (p.items.length === 0 || out.length >= p.total) return out;
  }
}

/** A user named by login or by id; answers the id and login. */
export async function resolveUser(c: JudgeClient, user: string): Promise<{ id: string; username: string }> {
  const found = await c.call(ops.lookupUsers, { query: { q: user } });
  const exact = found.find((u) => u.username.toLowerCase() === user.toLowerCase() || u.id === user);
  if (exact) return { id: exact.id, username: exact.username };
  if (isId(user)) return { id: user, username: user };
  throw new CliError(`no user ${user}`);
}

/** An activity the caller manages, by slug or id. */
export async function resolveActivity(c: JudgeClient, idOrSlug: string): Promise<Activity> {
  try {
    return await c.call(ops.getManagedActivity, { params: { idOrSlug } });
  } catch (e) {
    if (e instanceof ApiProblem && e.status === 404) throw new CliError(`no activity ${idOrSlug} that you manage`);
    throw e;
  }
}

/** A series of an activity, by slug or id. */
export async function resolveSeries(c: JudgeClient, activity: string, series: string): Promise<Series> {
  let all: Series[];
  try {
    all = await c.call(ops.listManagedSeries, { params: { idOrSlug: activity } });
  } catch (e) {
    if (e instanceof ApiProblem && e.status === 404) throw new CliError(`no activity ${activity} that you manage`);
    throw e;
  }
  const s = all.find((x) => x.id === series || x.slug.toLowerCase() === series.toLowerCase());
  if (!s) throw new CliError(`activity ${activity} has no series ${series}${all.length ? ` (it has: ${all.map((x) => x.slug).join(', ')})` : ''}`);
  return s;
}

/** A problem of the library, by slug or id. */
export async function resolveProblem(c: JudgeClient, problem: string): Promise<Problem> {
  if (isId(problem)) {
    try {
      return await c.call(ops.getProblem, { params: { id: problem } });
    } catch (e) {
      if (!(e instanceof ApiProblem && e.status === 404)) throw e;
    }
  }
  const found = await allPages((page, pageSize) => c.call(ops.listProblems, { query: { search: problem, page, pageSize, includeArchived: 'true' } }));
  const p = found.find((x) => x.slug.toLowerCase() === problem.toLowerCase());
  if (!p) throw new CliError(`no problem ${problem} that you may read`);
  return p;
}

/** A runner by id, by a prefix of its fingerprint, or by name; ambiguity is refused. */
export async function resolveRunner(c: JudgeClient, which: string): Promise<Runner> {
  const all = await allPages((page, pageSize) => c.call(ops.listRunners, { query: { page, pageSize } }));
  const byId = all.find((r) => r.id === which);
  if (byId) return byId;
  const lower = which.toLowerCase();
  const matches = [
    ...(/^[0-9a-f]{4,64}$/.test(lower) ? all.filter((r) => r.fingerprint.startsWith(lower)) : []),
    ...all.filter((r) => r.name === which),
  ].filter((r, i, a) => a.indexOf(r) === i);
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new CliError(`no runner ${which} (give an id, a fingerprint prefix of at least 4 hex digits, or a name)`);
  throw new CliError(`${which} names ${matches.length} runners: ${matches.map((r) => `${r.name} (${r.id}, ${r.fingerprint.slice(0, 12)})`).join('; ')}; give its id`);
}
