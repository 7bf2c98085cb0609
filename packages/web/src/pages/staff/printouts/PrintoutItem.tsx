import type { Printout } from '@judge/contract';
import { useAllActivities } from '../../../app/permissions';
import { formatBytes } from '../../../i18n/bytes';
import { useI18n } from '../../../i18n/I18n';
import { Time } from '../../../i18n/time';
import { PrintoutActions } from './PrintoutActions';

const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

const STATE_LABEL = { queued: 'staff.p.state.queued', claimed: 'staff.p.state.claimed', resolved: 'staff.p.state.resolved' } as const;

/** One printout of the queue: who asked for what and when, its state, and what to do with it. */
export function PrintoutItem({ printout: p }: { printout: Printout }) {
  const { t, locale } = useI18n();
  const activities = useAllActivities();
  const zone = activities.data?.items.find((a) => a.id === p.activityId)?.timeZone ?? localZone;
  const headingId = `p-${p.id}`;
  // claimedByMe stays true once resolved: "yours" matters only while it is in hand
  const mine = p.state === 'claimed' && p.claimedByMe;
  return (
    <li className={`card printout ${p.state}${mine ? ' mine' : ''}`} data-printout={p.id} aria-labelledby={headingId}>
      <header>
        <span className={`badge ${p.state}`}>{mine ? t('staff.p.claimedByMe') : t(STATE_LABEL[p.state])}</span>
        <h2 id={headingId}>{p.title || p.fileName}</h2>
      </header>
      <dl className="printout-facts">
        <dt>{t('staff.p.requester')}</dt>
        <dd>
          {p.requestedByName}
          {p.groupName && ` (${p.groupName})`}
        </dd>
        <dt>{t('staff.activity')}</dt>
        <dd>{p.activityName}</dd>
        <dt>{t('staff.p.file')}</dt>
        <dd>
          {p.fileName} · {formatBytes(p.sizeBytes, locale, t)}
        </dd>
        <dt>{t('staff.p.requestedAt')}</dt>
        <dd>
          <Time iso={p.requestedAt} timeZone={zone} />
        </dd>
        {p.claimedByName && p.state === 'claimed' && (
          <>
            <dt>{t('staff.p.claimedBy')}</dt>
            <dd>{p.claimedByMe ? t('staff.p.you') : p.claimedByName}</dd>
          </>
        )}
        {p.resolvedAt && (
          <>
            <dt>{t('staff.p.resolvedBy')}</dt>
            <dd>
              {p.resolvedByName} · <Time iso={p.resolvedAt} timeZone={zone} />
            </dd>
          </>
        )}
      </dl>
      <PrintoutActions printout={p} />
    </li>
  );
}
