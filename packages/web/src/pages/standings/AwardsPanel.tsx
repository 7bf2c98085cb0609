import type { ActivityAward } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { call } from '../../api/client';
import { useT } from '../../i18n/I18n';
import './awards.css';

export type Medal = 'gold' | 'silver' | 'bronze';
const MEDALS: readonly Medal[] = ['gold', 'silver', 'bronze'];

/**
 * The awards of a finalised activity, as the reader may see them (decisions §24): the server
 * answers an empty list while a freeze or the activity's visibility hides them. Read under the
 * activity's key, so that activityFinalized refetches them.
 */
export function useStandingsAwards(slug: string, finalizedAt: string | undefined): { awards: ActivityAward[]; medals: ReadonlyMap<string, Medal> } {
  const q = useQuery({
    queryKey: ['activity', slug, 'awards'],
    queryFn: () => call(ops.listActivityAwards, { params: { idOrSlug: slug } }),
    enabled: !!finalizedAt,
  });
  const awards = finalizedAt ? (q.data?.awards ?? []) : [];
  const medals = useMemo(() => {
    const m = new Map<string, Medal>();
    // the best medal first: a row holds one
    for (const medal of MEDALS) for (const u of awards.find((a) => a.key === `${medal}-medal`)?.userIds ?? []) if (!m.has(u)) m.set(u, medal);
    return m;
  }, [awards]);
  return { awards, medals };
}

/** The award citations beneath the final standings, each with its awardees. */
export function AwardsPanel({ awards }: { awards: readonly ActivityAward[] }) {
  const t = useT();
  if (!awards.length) return null;
  return (
    <section className="awards-panel" aria-labelledby="awards-heading">
      <h2 id="awards-heading">{t('awards.title')}</h2>
      <ul className="awards-list">
        {awards.map((a) => (
          <li key={a.key} data-award={a.key} className={MEDALS.find((m) => a.key === `${m}-medal`) ? `award-${a.key.replace('-medal', '')}` : undefined}>
            <span className="award-citation">{a.citation}</span>
            <span className="award-who">{a.userNames.join(', ')}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
