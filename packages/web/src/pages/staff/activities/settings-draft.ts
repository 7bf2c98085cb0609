import type { Activity, OperationInput } from '@judge/contract';
import type { ops } from '@judge/sdk/browser';
import { changedDates, toLocalInput } from './zoned';

export type UpdateBody = OperationInput<typeof ops.updateActivity>['body'];

/** The judging attachments participants may be shown, with what an activity does when it says nothing (decisions §8). */
export const SWITCHED = { compile: 'participant', details: 'managersOnly', log: 'managersOnly' } as const;
type Switched = keyof typeof SWITCHED;

/** The settings form as typed: text as the fields hold it, so a refused value stays as it was typed. */
export interface SettingsDraft {
  name: string;
  type: string;
  rankingType: 'icpc' | 'points';
  timeZone: string;
  startDate: string;
  endDate: string;
  joinPolicy: 'closed' | 'password' | 'open';
  joinPassword: string;
  unlisted: boolean;
  questions: boolean;
  printouts: boolean;
  sampleRuns: boolean;
  scoreVisibility: 'everyone' | 'participantOnly' | 'managersOnly';
  show: Record<Switched, boolean>;
  hideEndedSeriesProblems: boolean;
  showGroupMembers: boolean;
  publicScoreboard: boolean;
  maxSubmissionsPerProblem: string;
  maxUploadBytes: string;
  maxAttachments: string;
  runnerTags: string;
  props: string;
}

const shown = (a: Activity, name: Switched) => (a.attachmentVisibility.find((v) => v.name === name)?.visibility ?? SWITCHED[name]) === 'participant';

export function draftOf(a: Activity): SettingsDraft {
  return {
    name: a.name,
    type: a.type,
    rankingType: a.rankingType,
    timeZone: a.timeZone,
    startDate: toLocalInput(a.startDate, a.timeZone),
    endDate: toLocalInput(a.endDate, a.timeZone),
    joinPolicy: a.joinPolicy,
    joinPassword: a.joinPassword ?? '',
    unlisted: a.unlisted,
    questions: a.modules.questions,
    printouts: a.modules.printouts,
    sampleRuns: a.modules.sampleRuns,
    scoreVisibility: a.scoreVisibility,
    show: { compile: shown(a, 'compile'), details: shown(a, 'details'), log: shown(a, 'log') },
    hideEndedSeriesProblems: a.hideEndedSeriesProblems,
    showGroupMembers: a.showGroupMembers,
    publicScoreboard: a.publicScoreboard,
    maxSubmissionsPerProblem: a.maxSubmissionsPerProblem === undefined ? '' : String(a.maxSubmissionsPerProblem),
    maxUploadBytes: String(a.maxUploadBytes),
    maxAttachments: String(a.maxAttachments),
    runnerTags: a.runnerTags.join(', '),
    props: a.props ? JSON.stringify(a.props, null, 2) : '',
  };
}

/** A whole number as typed; anything else goes to the server as typed, which says what is wrong with it. */
const count = (v: string): number => (/^\s*\d+\s*$/.test(v) ? Number(v) : (v as unknown as number));

/** The props field: a JSON object, nothing (clears), or a sentence saying why it is neither. */
export function parseProps(text: string): { value: Record<string, unknown> | null } | { error: 'json' } {
  if (!text.trim()) return { value: null };
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v)) return { value: v as Record<string, unknown> };
  } catch {
    // said below
  }
  return { error: 'json' };
}

/**
 * The update request for what changed between the stored activity and the draft: every other
 * member is left out, so it keeps its stored value (the contract's rule for updateActivity).
 */
export function bodyOf(a: Activity, d: SettingsDraft): UpdateBody {
  const was = draftOf(a);
  const body: UpdateBody = { slug: a.slug };
  const pick = <K extends keyof SettingsDraft>(k: K) => d[k] !== was[k];
  if (pick('name')) body.name = d.name;
  if (pick('type')) body.type = d.type;
  if (pick('rankingType')) body.rankingType = d.rankingType;
  if (pick('timeZone')) body.timeZone = d.timeZone.trim();
  Object.assign(body, changedDates({ startDate: d.startDate, endDate: d.endDate }, { startDate: a.startDate, endDate: a.endDate }, a.timeZone));
  if (pick('joinPolicy')) body.joinPolicy = d.joinPolicy;
  if (pick('joinPassword')) body.joinPassword = d.joinPassword === '' ? null : d.joinPassword;
  if (pick('unlisted')) body.unlisted = d.unlisted;
  const modules = (['questions', 'printouts', 'sampleRuns'] as const).filter((k) => pick(k));
  if (modules.length) body.modules = Object.fromEntries(modules.map((k) => [k, d[k]]));
  if (pick('scoreVisibility')) body.scoreVisibility = d.scoreVisibility;
  const switched = (Object.keys(SWITCHED) as Switched[]).filter((k) => d.show[k] !== was.show[k]);
  if (switched.length) {
    const kept = a.attachmentVisibility.filter((v) => !switched.includes(v.name as Switched));
    body.attachmentVisibility = [...kept, ...switched.map((name) => ({ name, visibility: d.show[name] ? ('participant' as const) : ('managersOnly' as const) }))];
  }
  if (pick('hideEndedSeriesProblems')) body.hideEndedSeriesProblems = d.hideEndedSeriesProblems;
  if (pick('showGroupMembers')) body.showGroupMembers = d.showGroupMembers;
  if (pick('publicScoreboard')) body.publicScoreboard = d.publicScoreboard;
  if (pick('maxSubmissionsPerProblem')) body.maxSubmissionsPerProblem = d.maxSubmissionsPerProblem.trim() === '' ? null : count(d.maxSubmissionsPerProblem);
  if (pick('maxUploadBytes')) body.maxUploadBytes = count(d.maxUploadBytes);
  if (pick('maxAttachments')) body.maxAttachments = count(d.maxAttachments);
  if (pick('runnerTags')) body.runnerTags = d.runnerTags.split(',').map((t) => t.trim()).filter(Boolean);
  if (pick('props')) {
    const p = parseProps(d.props);
    if ('value' in p) body.props = p.value;
  }
  return body;
}
