import { clics, Password, Username } from '@judge/contract';
import { z } from 'zod';

/**
 * The files of a contest package judgectl reads (Contest_Package.md 2023-06, and the older names
 * DOMjudge's importer reads). Loose where the contract's CLICS schemas are strict: a package may
 * carry properties the judge does not keep (colours, locations, logos), and those are left, not
 * refused; what the judge does keep is checked as the contract's CLICS schemas check it.
 */

/** A CLICS TIME, or what DOMjudge writes (a space for the T, an offset of hours only); a YAML date as parsed. */
const Instant = z.preprocess(
  (v) => (v instanceof Date ? v.toISOString() : v),
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}(:?\d{2})?)$/, 'a date and time with its offset, e.g. 2026-06-25T10:00:00+02:00')
    .transform((s) => normalInstant(s))
    .refine((s) => !Number.isNaN(Date.parse(s)), 'not a date and time that exists'),
);

/** `2026-06-25 10:00+01` as `2026-06-25T10:00:00+01:00`, which Date.parse reads everywhere. */
function normalInstant(s: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?\s*(Z|[+-]\d{2})(:?(\d{2}))?$/.exec(s);
  if (!m) return s;
  const offset = m[4] === 'Z' ? 'Z' : `${m[4]}:${m[6] ?? '00'}`;
  return `${m[1]}T${m[2]}${m[3] ?? ':00'}${offset}`;
}

/** A CLICS RELTIME (`5:00:00`); DOMjudge's files say the same. */
const Reltime = clics.RELTIME;

/** A RELTIME in milliseconds (NaN for anything else: zod runs every check, even after a failed pattern). */
export function reltimeMs(t: string): number {
  const m = /^(-?)(\d+):(\d{2}):(\d{2})(\.\d{1,3})?$/.exec(t);
  if (!m) return Number.NaN;
  const ms = ((Number(m[2]) * 60 + Number(m[3])) * 60 + Number(m[4])) * 1000 + Math.round(Number(m[5] ?? 0) * 1000);
  return m[1] ? -ms : ms;
}

/** contest.json / contest.yaml, with DOMjudge's older keys beside the 2023-06 ones. */
export const ContestFile = z
  .looseObject({
    id: clics.ID.optional(),
    'short-name': clics.ID.optional(),
    name: z.string().trim().min(1).max(200).optional(),
    formal_name: z.string().trim().min(1).max(200).nullable().optional(),
    start_time: Instant.nullable().optional(),
    'start-time': Instant.nullable().optional(),
    duration: Reltime.refine((t) => reltimeMs(t) > 0, 'must be longer than 0:00:00'),
    scoreboard_freeze_duration: Reltime.nullable().optional(),
    'scoreboard-freeze-length': Reltime.nullable().optional(),
    scoreboard_type: z.enum(['pass-fail', 'score']).optional(),
    penalty_time: z.number().int().nonnegative().optional(),
    'penalty-time': z.number().int().nonnegative().optional(),
  })
  .refine((c) => !!(c.name ?? c.formal_name ?? c.id ?? c['short-name']), { message: 'needs a name (or an id)', path: ['name'] });
export type ContestFile = z.infer<typeof ContestFile>;

/** One entry of problems.json / problems.yaml (2023-06). */
export const ProblemEntry = z.looseObject({
  id: clics.ID,
  label: z.string().min(1).optional(),
  name: z.string().trim().min(1).max(200).optional(),
  ordinal: z.number().int().optional(),
});

/** problemset.yaml, DOMjudge's older name: `problems:` with `letter` and `short-name`. */
export const ProblemsetFile = z.looseObject({
  problems: z.array(z.looseObject({ letter: z.string().min(1).optional(), 'short-name': clics.ID, name: z.string().trim().min(1).max(200).optional() })),
});

/** A group becomes a tag of each of its teams: a tag is at most 64 characters, and one beginning `org:` would read back as an organisation. */
export const GroupEntry = z.looseObject({
  id: clics.ID,
  name: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .refine((n) => !n.toLowerCase().startsWith('org:'), 'a group name may not begin with org: (the judge would read it as an organisation)'),
});

/** An organisation becomes the tag `org:NAME` of its teams (at most 64 characters in all). */
export const OrganizationEntry = z.looseObject({ id: clics.ID, name: z.string().trim().min(1).max(60), formal_name: z.string().nullable().optional() });

export const TeamEntry = z.looseObject({
  id: clics.ID,
  name: z.string().trim().min(1).max(100),
  label: z.string().nullable().optional(),
  display_name: z.string().nullable().optional(),
  organization_id: clics.ID.nullable().optional(),
  group_ids: z.array(clics.ID).max(49).optional(),
});

/** An account; the judge's own rules for usernames and passwords (a password of at least 10 characters). */
export const AccountEntry = z
  .looseObject({
    id: clics.ID.optional(),
    username: Username,
    password: Password.optional(),
    name: z.string().trim().min(1).max(100).nullable().optional(),
    type: z.enum(['team', 'judge', 'admin', 'analyst', 'staff']),
    team_id: clics.ID.nullable().optional(),
  })
  .refine((a) => (a.type === 'team') === !!a.team_id, { message: 'team_id is required for a team account and only for one', path: ['team_id'] });

export type ProblemEntry = z.infer<typeof ProblemEntry>;
export type GroupEntry = z.infer<typeof GroupEntry>;
export type OrganizationEntry = z.infer<typeof OrganizationEntry>;
export type TeamEntry = z.infer<typeof TeamEntry>;
export type AccountEntry = z.infer<typeof AccountEntry>;
