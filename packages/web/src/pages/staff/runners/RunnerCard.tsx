import type { Runner } from '@judge/contract';
import { useT } from '../../../i18n/I18n';
import { Time } from '../../../i18n/time';
import { CurrentJob } from './CurrentJob';
import { Fingerprint } from './Fingerprint';
import { RunnerActions } from './RunnerActions';

const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

const STATE = {
  pendingApproval: 'staff.runners.state.pendingApproval',
  approved: 'staff.runners.state.approved',
  revoked: 'staff.runners.state.revoked',
} as const;

/** One runner: its state, whether it is connected, what it judges now, its facts, and what the reader may do. */
export function RunnerCard({ runner: r }: { runner: Runner }) {
  const t = useT();
  const headingId = `runner-${r.id}`;
  return (
    <li className={`card runner ${r.state}`} data-runner={r.id} aria-labelledby={headingId}>
      <header>
        <h2 id={headingId}>{r.name}</h2>
        <span className={`badge ${r.state}`}>{t(STATE[r.state])}</span>
        {r.state !== 'revoked' && (
          <span className={`badge ${r.isConnected ? 'connected' : 'offline'}`}>{t(r.isConnected ? 'staff.runners.connected' : 'staff.runners.disconnected')}</span>
        )}
      </header>
      {r.revokedReason && <p className="muted">{t('staff.runners.revokedBecause', { reason: r.revokedReason })}</p>}
      <dl className="runner-facts">
        <dt>{t('staff.runners.now')}</dt>
        <dd data-fact="now">{r.currentJob ? <CurrentJob job={r.currentJob} /> : <span className="muted">{t('staff.runners.idle')}</span>}</dd>
        <dt>{t('staff.runners.fingerprint')}</dt>
        <dd>
          <Fingerprint value={r.fingerprint} />
        </dd>
        <dt>{t('staff.runners.tags')}</dt>
        <dd data-fact="tags">{r.tags.length ? r.tags.join(', ') : <span className="muted">{t('staff.runners.noTags')}</span>}</dd>
        <dt>{t('staff.runners.languages')}</dt>
        <dd data-fact="languages">{r.languages ? r.languages.join(', ') : <span className="muted">{t('staff.runners.anyLanguage')}</span>}</dd>
        <dt>{t('staff.runners.problemTypes')}</dt>
        <dd>{r.problemTypes.join(', ')}</dd>
        <dt>{t('staff.runners.lastSeen')}</dt>
        <dd>{r.lastSeenAt ? <Time iso={r.lastSeenAt} timeZone={localZone} /> : t('staff.runners.never')}</dd>
        {r.address && (
          <>
            <dt>{t('staff.runners.address')}</dt>
            <dd>{r.address}</dd>
          </>
        )}
        {r.version && (
          <>
            <dt>{t('staff.runners.version')}</dt>
            <dd>{r.version}</dd>
          </>
        )}
        <dt>{t('staff.runners.jobsDone')}</dt>
        <dd>{r.completedJobs}</dd>
      </dl>
      <RunnerActions runner={r} />
    </li>
  );
}
