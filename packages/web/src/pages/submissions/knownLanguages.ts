import type { LanguageChoice, ParticipantProblem } from '@judge/contract';
import { useQueryClient } from '@tanstack/react-query';
import { keys } from '../../api/keys';

/**
 * The languages the problems of an activity already read in this tab name, so that a list can say
 * "Python 3 (CPython)" rather than "python3". Nothing is fetched for it: without them the id shows.
 */
export function useKnownLanguages(activity: string): LanguageChoice[] {
  const qc = useQueryClient();
  const byId = new Map<string, LanguageChoice>();
  const prefix = keys.problem(activity, '').slice(0, 2);
  for (const [, p] of qc.getQueriesData<ParticipantProblem>({ queryKey: prefix })) {
    for (const l of p?.allowedLanguages ?? []) byId.set(l.id, l);
  }
  return [...byId.values()];
}
