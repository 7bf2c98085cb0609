import type { Question } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { call } from '../../api/client';
import { keys } from '../../api/keys';
import { needsReading } from './model';

/** The reader's own questions, the published ones and the announcements (one page holds a contest's worth). */
export function useQuestions(slug: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.questions(slug),
    queryFn: () => call(ops.listOwnQuestions, { params: { idOrSlug: slug }, query: { pageSize: 100 } }),
    enabled,
  });
}

/**
 * Marks read what the page shows and the reader had not read, once it is on screen; the list is
 * then fetched again so the tab's badge drops.
 */
export function useMarkShownRead(slug: string, questions: readonly Question[] | undefined): void {
  const qc = useQueryClient();
  const unread = (questions ?? []).filter(needsReading).map((q) => q.id);
  const signature = unread.join(',');
  useEffect(() => {
    if (!signature) return;
    const ids = signature.split(',');
    void Promise.all(ids.map((id) => call(ops.markQuestionRead, { params: { idOrSlug: slug, id } }).catch(() => undefined))).then(() =>
      qc.invalidateQueries({ queryKey: keys.questions(slug) }),
    );
  }, [qc, slug, signature]);
}
