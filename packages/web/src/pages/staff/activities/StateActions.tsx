import type { Activity } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { call } from '../../../api/client';
import { useMay } from '../../../app/permissions';
import { useT } from '../../../i18n/I18n';
import { Time } from '../../../i18n/time';
import { JudgectlHint } from '../JudgectlHint';
import { useRefetchActivity } from './queries';
import { Refusal } from './Refusal';

/** Publish or withdraw, archive or restore, and delete (only what holds no submissions, after asking). */
export function StateActions({ activity }: { activity: Activity }) {
  const t = useT();
  const navigate = useNavigate();
  const refetch = useRefetchActivity();
  const mayArchive = useMay(activity.id, 'activity:archive');
  const mayDelete = useMay(activity.id, 'activity:delete');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [confirming, setConfirming] = useState(false);
  const act = (work: () => Promise<unknown>, after?: () => void) => async () => {
    setBusy(true);
    setError(null);
    try {
      await work();
      await refetch();
      after?.();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const published = !!activity.publishedAt;
  const archived = !!activity.archivedAt;
  return (
    <section className="staff-panel" aria-labelledby="state-heading">
      <h3 id="state-heading">{t('staff.activities.state')}</h3>
      <p data-state={published ? 'published' : 'unpublished'}>
        {published ? t('staff.activities.isPublished') : t('staff.activities.isUnpublished')}
        {published && (
          <>
            {' '}
            (<Time iso={activity.publishedAt!} timeZone={activity.timeZone} />)
          </>
        )}
        {archived && <> {t('staff.activities.isArchived')}</>}
      </p>
      <div className="staff-actions">
        <button type="button" className={published ? '' : 'primary'} disabled={busy || archived} onClick={act(() => call(ops.setActivityPublished, { params: { id: activity.id }, body: { published: !published } }))}>
          {published ? t('staff.activities.unpublish') : t('staff.activities.publish')}
        </button>
        {mayArchive && (
          <button type="button" disabled={busy} onClick={act(() => call(ops.setActivityArchived, { params: { idOrSlug: activity.id }, body: { archived: !archived } }))}>
            {archived ? t('staff.activities.restore') : t('staff.activities.archive')}
          </button>
        )}
        {mayDelete && !confirming && (
          <button type="button" className="danger" disabled={busy} onClick={() => setConfirming(true)}>
            {t('staff.activities.delete')}
          </button>
        )}
      </div>
      {confirming && (
        <div className="confirm" role="group" aria-label={t('staff.activities.delete')}>
          <span>{t('staff.activities.deleteConfirm', { name: activity.name })}</span>
          <button type="button" className="danger" disabled={busy} onClick={act(() => call(ops.deleteActivity, { params: { idOrSlug: activity.id } }), () => navigate('/staff', { replace: true }))}>
            {t('staff.activities.deleteYes')}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            {t('staff.cancel')}
          </button>
        </div>
      )}
      <p className="muted">{t('staff.activities.state.hint')}</p>
      <Refusal error={error} />
      <JudgectlHint command={`judgectl activities publish ${activity.slug}  ·  judgectl activities archive ${activity.slug}`} />
    </section>
  );
}
