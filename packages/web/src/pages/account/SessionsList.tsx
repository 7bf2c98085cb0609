import type { Session } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client';
import { keys } from '../../api/keys';
import { ErrorBox, Loading } from '../../components/Status';
import { useT } from '../../i18n/I18n';
import { Time } from '../../i18n/time';
import { deviceOf } from './device';

const ownZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

function SessionItem({ s, onEnd, ending }: { s: Session; onEnd(): void; ending: boolean }) {
  const t = useT();
  const device = deviceOf(s.userAgent) ?? t('account.unknown');
  const address = s.ipAddress ?? t('account.unknown');
  return (
    <li className={`card session${s.isCurrent ? ' current' : ''}`} data-session={s.id}>
      <p className="session-device" title={s.userAgent}>
        <strong>{device}</strong> {s.isCurrent && <span className="badge">{t('account.current')}</span>}
      </p>
      <dl className="session-facts">
        <dt>{t('account.address')}</dt>
        <dd>{address}</dd>
        <dt>{t('account.lastSeen')}</dt>
        <dd>
          <Time iso={s.lastRequestAt ?? s.startedAt} timeZone={ownZone} />
        </dd>
        <dt>{t('account.started')}</dt>
        <dd>
          <Time iso={s.startedAt} timeZone={ownZone} />
        </dd>
      </dl>
      {!s.isCurrent && (
        <button type="button" onClick={onEnd} disabled={ending} aria-label={t('account.endLabel', { device, address })}>
          {ending ? t('account.ending') : t('account.end')}
        </button>
      )}
    </li>
  );
}

/** The account's live sessions, this browser's marked; any other can be ended from here. */
export function SessionsList() {
  const t = useT();
  const qc = useQueryClient();
  const q = useQuery({ queryKey: keys.sessions, queryFn: () => call(ops.listAccountSessions) });
  const end = useMutation({
    mutationFn: (id: string) => call(ops.endAccountSession, { params: { id } }),
    onSettled: () => qc.invalidateQueries({ queryKey: keys.sessions }),
  });
  const sessions = q.data ? [...q.data].sort((a, b) => Number(b.isCurrent) - Number(a.isCurrent)) : [];
  return (
    <section aria-labelledby="account-sessions">
      <h2 id="account-sessions">{t('account.sessions')}</h2>
      {q.isPending && <Loading />}
      {q.isError && <ErrorBox error={q.error} />}
      {end.isError && <ErrorBox error={end.error} />}
      <ul className="sessions">
        {sessions.map((s) => (
          <SessionItem key={s.id} s={s} onEnd={() => end.mutate(s.id)} ending={end.isPending && end.variables === s.id} />
        ))}
      </ul>
      {q.data && !q.data.some((s) => !s.isCurrent) && <p className="muted">{t('account.noOthers')}</p>}
    </section>
  );
}
