import type { Question } from '@judge/contract';
import { useState } from 'react';
import { useT } from '../../../i18n/I18n';
import { useLiveFrames } from '../../../live/Live';

/**
 * What the queue's polite live region says when a question arrives: who asked and about what, so
 * a screen-reader user hears it without leaving what they are doing. Other changes (an answer by a
 * colleague, a deletion) only refresh the list.
 */
export function useQueueAnnouncer(): string {
  const t = useT();
  const [said, setSaid] = useState('');
  const [seen] = useState(() => new Set<string>());
  useLiveFrames('questionChanged', (data) => {
    const q = data.question as Question | undefined;
    if (!q || q.kind !== 'question' || q.answer || seen.has(q.id)) return;
    seen.add(q.id);
    setSaid(t('staff.q.arrived', { who: q.authorName ?? '?', topic: q.topic }));
  });
  return said;
}
