import type { Ceremony, CeremonyStep } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { keys } from '../../api/keys';
import { ErrorBox, Loading } from '../../components/Status';
import { usePageTitle } from '../../components/usePageTitle';
import { useT } from '../../i18n/I18n';
import { useLiveFrames } from '../../live/Live';
import { AwardCard, CeremonyBoard } from './CeremonyBoard';
import { sceneAt, stepBeforeRank } from './replay';
import './ceremony.css';

/** Keys the presenter drives the ceremony with (a clicker sends PageDown/PageUp). */
const NEXT = new Set(['ArrowRight', ' ', 'PageDown', 'Enter']);
const BACK = new Set(['ArrowLeft', 'PageUp', 'Backspace']);

/**
 * The award ceremony (decisions §26), full screen. The presenter steps with the keyboard; each step
 * is sent to the server, and screens opened with ?follow=1 show the same step.
 */
export default function CeremonyPage() {
  const t = useT();
  const slug = useParams().activity ?? '';
  const following = useSearchParams()[0].get('follow') === '1';
  const activity = useQuery({ queryKey: keys.activity(slug), queryFn: () => call(ops.getActivity, { params: { idOrSlug: slug } }) });
  const ceremony = useQuery({ queryKey: ['ceremony', slug], queryFn: () => call(ops.getCeremony, { params: { idOrSlug: slug } }), staleTime: Infinity });
  usePageTitle(activity.data ? `${t('ceremony.title')} · ${activity.data.name}` : t('ceremony.title'));
  if (ceremony.isPending) return <Loading />;
  if (ceremony.isError) return <ErrorBox error={ceremony.error} />;
  return <CeremonyView slug={slug} activityId={activity.data?.id} name={activity.data?.name ?? slug} c={ceremony.data} following={following} />;
}

function CeremonyView({ slug, activityId, name, c, following }: { slug: string; activityId: string | undefined; name: string; c: Ceremony; following: boolean }) {
  const t = useT();
  const [step, setStep] = useState(c.step);
  const [rankTo, setRankTo] = useState(10);
  const [refused, setRefused] = useState(false);
  const scene = useMemo(() => sceneAt(c, step), [c, step]);

  const go = useCallback(
    (next: number) => {
      const n = Math.max(0, Math.min(next, c.steps.length));
      setStep(n);
      if (following) return;
      call(ops.setCeremonyStep, { params: { idOrSlug: slug }, body: { step: n } }).then(
        () => setRefused(false),
        () => setRefused(true),
      );
    },
    [c.steps.length, following, slug],
  );

  useLiveFrames('ceremonyStepChanged', (data) => {
    if (!following || typeof data.step !== 'number') return;
    // another activity's ceremony is not this one's (until the activity is read, any step is taken)
    if (activityId !== undefined && data.activityId !== activityId) return;
    setStep(data.step);
  });

  useEffect(() => {
    if (following) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement || e.altKey || e.ctrlKey || e.metaKey) return;
      let next: number | undefined;
      if (NEXT.has(e.key)) next = step + 1;
      else if (BACK.has(e.key)) next = step - 1;
      else if (e.key === 'Home') next = 0;
      else if (e.key === 'End') next = c.steps.length;
      else if (e.key === 'f' || e.key === 'F') next = Math.max(step, stepBeforeRank(c, rankTo));
      if (next === undefined) return;
      e.preventDefault();
      go(next);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [c, following, go, rankTo, step]);

  const last: CeremonyStep | undefined = scene.last;
  return (
    <section className="ceremony" data-step={step} data-following={following ? 'true' : undefined}>
      <header className="ceremony-head">
        <h1>
          {t('ceremony.title')} · {name}
        </h1>
        <p className="ceremony-state" role="status">
          {t('ceremony.step', { step, total: c.steps.length })} · {following ? t('ceremony.following') : t('ceremony.presenter')}
        </p>
      </header>
      {!c.finalized && <p className="ceremony-note">{t('ceremony.notFinalized')}</p>}
      {c.steps.length === 0 && <p className="ceremony-note">{t('ceremony.noSteps')}</p>}
      {refused && <p className="ceremony-note" role="alert">{t('ceremony.stepRefused')}</p>}
      <CeremonyBoard c={c} scene={scene} />
      {last?.kind === 'award' && <AwardCard c={c} step={last} rows={scene.rows} />}
      {!following && (
        <footer className="ceremony-keys">
          <span>{t('ceremony.keys', { rank: rankTo })}</span>
          <label>
            {t('ceremony.rankTo')}{' '}
            <input type="number" min={1} max={Math.max(1, c.rows.length)} value={rankTo} onChange={(e) => setRankTo(Math.max(1, Number(e.target.value) || 1))} />
          </label>
          <Link to={`/ceremony/${encodeURIComponent(slug)}?follow=1`} target="_blank">
            {t('ceremony.follow')}
          </Link>
        </footer>
      )}
    </section>
  );
}
