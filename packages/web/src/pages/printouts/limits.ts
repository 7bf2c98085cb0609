import { ApiProblem } from '@judge/sdk/browser';
import type { MessageKey } from '../../i18n/catalogue';

/** The contract's PRINTOUT_SOURCE_MAX, here as a number so the page does not pull the schemas into its chunk (a test keeps them equal). */
export const PRINTOUT_SOURCE_MAX = 256 * 1024;

/** A refused request in words the participant can act on; null leaves it to the general error box. */
export function printoutRefusal(e: unknown): MessageKey | null {
  if (!(e instanceof ApiProblem)) return null;
  if (e.status === 403 && e.code === 'printouts.disabled') return 'printouts.disabled';
  if (e.status === 409 && e.code === 'activity.archived') return 'printouts.archived';
  return null;
}
