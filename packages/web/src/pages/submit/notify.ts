import type { SubmissionSummary } from '@judge/contract';

/** Whether the reader asked for verdict notifications in this browser (asked only from a button). */
const KEY = 'judge.notifyVerdicts';

export type Permission = NotificationPermission | 'unsupported';

export function notifyPermission(): Permission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

export function notifyChosen(store: Pick<Storage, 'getItem'>): boolean {
  try {
    return store.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

export function chooseNotify(store: Pick<Storage, 'setItem'>, on: boolean): void {
  try {
    store.setItem(KEY, on ? 'on' : 'off');
  } catch {
    /* the choice then lasts as long as the page */
  }
}

/**
 * Whether a pushed submission is worth a system notification: a verdict arrived (the attempt
 * finished with one), the reader chose notifications and the browser allows them, and the tab is
 * not being looked at (a visible page shows the verdict itself).
 */
export function shouldNotify(s: Pick<SubmissionSummary, 'state' | 'verdict'>, opts: { hidden: boolean; chosen: boolean; permission: Permission }): boolean {
  return opts.hidden && opts.chosen && opts.permission === 'granted' && s.state === 'completed' && !!s.verdict;
}
