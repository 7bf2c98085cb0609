import type { IssuedCredentials } from '@judge/contract';
import { CSV_BOM, csvLine } from '@judge/sdk/browser';

/** The temporary accounts form as typed: the count as its text, the expiry as a datetime-local value, the activity by slug. */
export interface TemporaryDraft {
  prefix: string;
  count: string;
  expiresAt: string;
  activity: string;
}

/** The body of POST /users/temporary: the expiry read in the reader's zone, the activity by id; blank ones left out. */
export function temporaryBody(d: TemporaryDraft, activityId: string | undefined) {
  return {
    prefix: d.prefix.trim(),
    count: Number(d.count),
    ...(d.expiresAt ? { expiresAt: new Date(d.expiresAt).toISOString() } : {}),
    ...(activityId ? { activityId } : {}),
  };
}

/** The logins and passwords as a spreadsheet reads them: a byte-order mark, a header, then one account a line. */
export function credentialsCsv(issued: readonly IssuedCredentials[]): string {
  return CSV_BOM + csvLine(['username', 'password']) + issued.map((c) => csvLine([c.username, c.password])).join('');
}

/** The logins and passwords to paste: one account a line, a tab between (a spreadsheet's columns). */
export function credentialsText(issued: readonly IssuedCredentials[]): string {
  return issued.map((c) => `${c.username}\t${c.password}`).join('\n');
}
