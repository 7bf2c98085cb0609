import type { Activity, ActivityAward } from '@judge/contract';
import { ApiProblem, ops } from '@judge/sdk/browser';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import type { MessageKey } from '../../../i18n/catalogue';
import { useT } from '../../../i18n/I18n';
import { Time } from '../../../i18n/time';
import { JudgectlHint } from '../JudgectlHint';
import { MedalCountsForm } from './MedalCountsForm';
import { Refusal } from './Refusal';

/** Where each blocker of a refused finalisation is dealt with (decisions §24). */
const BLOCKER_LINKS: Record<string, { path: string; label: MessageKey }> = {
  notEnded: { path: 'series', label: 'awards.finalize.toSettings' },
  unjudged: { path: 'submissions', label: 'awards.finalize.toSubmissions' },
  unanswered: { path: 'questions', label: 'awards.finalize.toQuestions' },
};

/** One award with its citation, edited in place and saved on submit. */
function AwardItem({ activity, award, onSaved }: { activity: Activity; award: ActivityAward; onSaved: () => Promise<unknown> }) {
  const t = useT();
  const [citation, setCitation] = useState(award.citation);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const id = `citation-${award.key}`;
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setSaved(false);
    try {
      await call(ops.updateActivityAward, { params: { idOrSlug: activity.slug, key: award.key }, body: { citation } });
      setSaved(true);
      await onSaved();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <li className="award-item" data-award={award.key}>
      <form className="award-form" onSubmit={(e) => void save(e)} noValidate>
        <label htmlFor={id} className="visually-hidden">
          {t('awards.citation', { award: award.key })}
        </label>
        <code className="award-key">{award.key}</code>
        <input id={id} value={citation} maxLength={200} onChange={(e) => setCitation(e.target.value)} />
        <button type="submit">{t('awards.citation.save')}</button>
        {saved && <span role="status">{t('awards.citation.saved')}</span>}
        {award.adjusted && <span className="muted"> ({t('awards.adjusted')})</span>}
      </form>
      <span className="award-who">{award.userNames.join(', ')}</span>
      <Refusal error={error} />
    </li>
  );
}

/** What keeps the activity from being finalised, each with a link to where it is dealt with: a note before, a refusal after pressing Finalise. */
function BlockerList({ blocked, refused, base }: { blocked: [string, string[]][]; refused: boolean; base: string }) {
  const t = useT();
  return (
    <div className={refused ? 'error-box' : 'warn-box'} role={refused ? 'alert' : 'status'} data-code="activity.finalize.blocked" data-refused={refused ? 'true' : 'false'}>
      <strong>{t(refused ? 'awards.finalize.blocked' : 'awards.finalize.blockedNow')}</strong>
      <ul className="finalize-blockers">
        {blocked.map(([key, reasons]) => (
          <li key={key} data-blocker={key}>
            {reasons.join(' ')} {BLOCKER_LINKS[key] && <Link to={`${base}/${BLOCKER_LINKS[key].path}`}>{t(BLOCKER_LINKS[key].label)}</Link>}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The Finalise section of an activity's settings (decisions §24): why it cannot be finalised yet
 * (with a link to where each reason is dealt with), finalising and reopening, the awards with
 * their citations, and the medal counts.
 */
export function FinalizeSection({ activity }: { activity: Activity }) {
  const t = useT();
  const qc = useQueryClient();
  const awardsKey = ['staffActivity', activity.slug, 'awards'];
  // while not final, asked again now and then: what blocks finalising changes as the contest ends and the queue empties
  const awards = useQuery({
    queryKey: awardsKey,
    queryFn: () => call(ops.listActivityAwards, { params: { idOrSlug: activity.slug } }),
    refetchInterval: activity.finalizedAt ? false : 15_000,
  });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const base = `/staff/a/${encodeURIComponent(activity.slug)}`;
  const refresh = () => Promise.all([qc.invalidateQueries({ queryKey: keys.staffActivity(activity.slug) }), qc.invalidateQueries({ queryKey: ['activity', activity.slug] })]);
  const run = (work: () => Promise<unknown>) => async () => {
    setBusy(true);
    setError(null);
    try {
      await work();
      await refresh();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const refused = error instanceof ApiProblem && error.code === 'activity.finalize.blocked' ? Object.entries(error.errors ?? {}) : null;
  // shown before anyone presses Finalise; a refusal's own list when there is one (it is newer)
  const pending = !activity.finalizedAt && awards.data?.finalizeBlockers ? Object.entries(awards.data.finalizeBlockers).filter(([, v]) => v?.length) : [];
  const blocked = refused ?? (pending.length ? (pending as [string, string[]][]) : null);
  const list = awards.data?.awards ?? [];
  return (
    <section className="staff-panel finalize-section" aria-labelledby="finalize-heading">
      <h3 id="finalize-heading">{t('awards.finalize.title')}</h3>
      {activity.finalizedAt ? (
        <p role="status">
          {t('awards.finalize.doneAt')} <Time iso={activity.finalizedAt} timeZone={activity.timeZone} />. {t('awards.finalize.isFinal')}
        </p>
      ) : (
        <p className="muted">{t('awards.finalize.hint')}</p>
      )}
      {blocked && <BlockerList blocked={blocked} refused={!!refused} base={base} />}
      {!blocked && <Refusal error={error} />}
      <div className="staff-actions">
        {activity.finalizedAt ? (
          <button type="button" disabled={busy} title={t('awards.reopen.hint')} onClick={run(() => call(ops.reopenActivity, { params: { idOrSlug: activity.slug } }))}>
            {t('awards.reopen')}
          </button>
        ) : (
          <button type="button" className="primary" disabled={busy} onClick={run(() => call(ops.finalizeActivity, { params: { idOrSlug: activity.slug } }))}>
            {t('awards.finalize.button')}
          </button>
        )}
      </div>
      <h4>{t('awards.title')}</h4>
      {awards.isError && <Refusal error={awards.error} />}
      {awards.data && !list.length && <p className="muted">{activity.finalizedAt ? t('awards.none') : t('awards.notYet')}</p>}
      {list.length > 0 && (
        <ul className="awards-edit">
          {list.map((a) => (
            <AwardItem key={`${a.key}:${a.citation}`} activity={activity} award={a} onSaved={() => qc.invalidateQueries({ queryKey: awardsKey })} />
          ))}
        </ul>
      )}
      <MedalCountsForm activity={activity} />
      <JudgectlHint command={`judgectl activities finalize ${activity.slug}`} />
    </section>
  );
}
