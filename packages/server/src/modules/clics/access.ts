import { clics } from '@judge/contract';
import type { Contest, Role } from './contest.js';

/**
 * The access endpoint (Contest_API.md, "Access"): the endpoints and properties the caller's role
 * is served, and no capabilities (this API only reads). The properties are the schemas' own, less
 * what the role or the contest's scoring leaves out, so the answer and the objects never disagree.
 */

type Endpoint = { type: string; schema: { shape: Record<string, unknown> }; roles: readonly Role[]; omit?: (c: Contest) => string[] };

const ALL: readonly Role[] = ['public', 'team', 'admin'];
const pointsOnly = (key: string) => (c: Contest) => (c.a.rankingType === 'points' ? [] : [key]);

const ENDPOINTS: Endpoint[] = [
  { type: 'contest', schema: clics.Contest, roles: ALL, omit: () => ['countdown_pause_time', 'scoreboard_thaw_time'] },
  { type: 'judgement-types', schema: clics.JudgementType, roles: ALL },
  { type: 'languages', schema: clics.Language, roles: ALL },
  { type: 'problems', schema: clics.Problem, roles: ALL, omit: pointsOnly('max_score') },
  { type: 'groups', schema: clics.Group, roles: ALL },
  { type: 'organizations', schema: clics.Organization, roles: ALL },
  { type: 'teams', schema: clics.Team, roles: ALL },
  { type: 'accounts', schema: clics.Account, roles: ['team', 'admin'] },
  { type: 'state', schema: clics.State, roles: ALL },
  // the public sees every submission but none's files
  { type: 'submissions', schema: clics.Submission, roles: ALL, omit: (c) => (c.role === 'public' ? ['files'] : []) },
  { type: 'judgements', schema: clics.Judgement, roles: ALL, omit: pointsOnly('score') },
  { type: 'runs', schema: clics.Run, roles: ['team', 'admin'] },
  { type: 'clarifications', schema: clics.Clarification, roles: ALL },
  { type: 'awards', schema: clics.Award, roles: ALL },
];

/** The collections (and singular objects) a role is served. */
export function serves(c: Contest, type: string): boolean {
  return ENDPOINTS.some((e) => e.type === type && e.roles.includes(c.role));
}

export function accessOf(c: Contest): clics.Access {
  const endpoints = ENDPOINTS.filter((e) => e.roles.includes(c.role)).map((e) => {
    const omitted = new Set(e.omit?.(c) ?? []);
    return { type: e.type, properties: Object.keys(e.schema.shape).filter((k) => !omitted.has(k)) };
  });
  return { capabilities: [], endpoints };
}
