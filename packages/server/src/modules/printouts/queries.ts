import type { Printout } from '@judge/contract';
import { compact } from '../../util.js';

export interface PrintoutRow {
  id: string;
  activity_id: string;
  activity_name: string;
  activity_slug: string;
  time_zone: string;
  user_id: string;
  requester_username: string;
  requester_first: string | null;
  requester_last: string | null;
  requester_tags: string;
  title: string;
  file_name: string;
  source: string | null;
  size_bytes: number;
  sha256: string;
  submission_id: string | null;
  problem_slug: string | null;
  problem_name: string | null;
  language: string | null;
  state: 'queued' | 'claimed' | 'resolved';
  requested_at: string;
  claimed_by_user_id: string | null;
  claimer_username: string | null;
  claimer_first: string | null;
  claimer_last: string | null;
  claimed_at: string | null;
  resolved_at: string | null;
  resolver_username: string | null;
  resolver_first: string | null;
  resolver_last: string | null;
  source_disposed_at: string | null;
  print_started_at: string | null;
  print_finished_at: string | null;
  print_exit_code: number | null;
  print_output: string | null;
}

export const PRINTOUT_SELECT = `
SELECT o.*, a.name AS activity_name, a.slug AS activity_slug, a.time_zone,
  u.username AS requester_username, u.first_name AS requester_first, u.last_name AS requester_last, u.tags AS requester_tags,
  c.username AS claimer_username, c.first_name AS claimer_first, c.last_name AS claimer_last,
  r.username AS resolver_username, r.first_name AS resolver_first, r.last_name AS resolver_last,
  sp.slug AS problem_slug, COALESCE(sp.name, p.name) AS problem_name,
  (SELECT sf.language FROM submission_files sf WHERE sf.submission_id = o.submission_id LIMIT 1) AS language
FROM printouts o
JOIN activities a ON a.id = o.activity_id
JOIN users u ON u.id = o.user_id
LEFT JOIN users c ON c.id = o.claimed_by_user_id
LEFT JOIN users r ON r.id = o.resolved_by_user_id
LEFT JOIN series_problems sp ON sp.id = o.series_problem_id
LEFT JOIN problems p ON p.id = sp.problem_id`;

export function nameOf(username: string | null, first: string | null, last: string | null): string | undefined {
  if (!username) return undefined;
  return [first, last].filter(Boolean).join(' ') || username;
}

/** The record; `viewer` decides `claimedByMe` (events, told to many, leave it out). */
export function toPrintout(r: PrintoutRow, viewer?: string): Printout {
  const tags = JSON.parse(r.requester_tags) as string[];
  return compact({
    id: r.id,
    activityId: r.activity_id,
    activityName: r.activity_name,
    activitySlug: r.activity_slug,
    requestedByName: nameOf(r.requester_username, r.requester_first, r.requester_last)!,
    groupName: tags[0],
    title: r.title,
    fileName: r.file_name,
    sizeBytes: r.size_bytes,
    sha256: r.sha256,
    state: r.state,
    requestedAt: r.requested_at,
    claimedByName: nameOf(r.claimer_username, r.claimer_first, r.claimer_last),
    claimedAt: r.claimed_at,
    claimedByMe: viewer === undefined ? undefined : r.claimed_by_user_id === viewer,
    resolvedAt: r.resolved_at,
    resolvedByName: nameOf(r.resolver_username, r.resolver_first, r.resolver_last),
    sourceDisposedAt: r.source_disposed_at,
  }) as Printout;
}
