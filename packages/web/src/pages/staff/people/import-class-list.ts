import { ops, requestOf } from '@judge/sdk/browser';
import { call } from '../../../api/client';
import type { Issued } from './issued';
import type { Plan } from './class-list-plan';
import { grantRole } from './queries';

export interface ImportProgress {
  done: number;
  total: number;
}

/**
 * Creates the plan's new accounts and enrols them, then enrols the existing ones. Each password is
 * handed to `issued` as soon as its account exists, so a failure half-way loses none of them.
 */
export async function importClassList(plan: Plan, activityId: string, participantRoleId: string, issued: (c: Issued) => void, progress: (p: ImportProgress) => void): Promise<void> {
  const total = plan.fresh.length + plan.enrol.length;
  let done = 0;
  for (const r of plan.fresh) {
    const made = await call(ops.createUser, { body: requestOf(r) });
    issued({ userId: made.userId, username: made.username, password: made.password, name: [r.firstName, r.lastName].filter(Boolean).join(' ') });
    await grantRole(made.userId, participantRoleId, activityId);
    progress({ done: ++done, total });
  }
  for (const e of plan.enrol) {
    await grantRole(e.account.id, participantRoleId, activityId);
    progress({ done: ++done, total });
  }
}
