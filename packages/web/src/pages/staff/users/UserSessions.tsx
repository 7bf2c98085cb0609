import type { ManagedUser, Session } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { ErrorBox, Loading } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { Time } from '../../../i18n/time';
import { deviceOf } from '../../account/device';
import { JudgectlHint } from '../JudgectlHint';
import { OWN_ZONE, useUserSessions } from './queries';

function SessionRow({ s, mayEnd, onEnd, ending }: { s: Session; mayEnd: boolean; onEnd(): void; ending: boolean }) {
  const t = useT();
  const device = deviceOf(s.userAgent) ?? t('staff.users.unknown');
  const address = s.ipAddress ?? t('staff.users.unknown');
  return (
    <tr data-session={s.id}>
      <td title={s.userAgent}>
        {device} {s.isCurrent && <span className="badge">{t('staff.users.yours')}</span>}
      </td>
      <td>{address}</td>
      <td className="wide-only">
        <Time iso={s.startedAt} timeZone={OWN_ZONE} />
      </td>
      <td>
        <Time iso={s.lastRequestAt ?? s.startedAt} timeZone={OWN_ZONE} />
      </td>
      <td>
        {mayEnd && !s.isCurrent && (
          <button type="button" onClick={onEnd} disabled={ending} aria-label={t('staff.users.endSessionLabel', { device, address })}>
            {t('staff.users.endSession')}
          </button>
        )}
      </td>
    </tr>
  );
}

/** Where the account is signed in; staff holding user:update end one session or all of them. */
export function UserSessions({ user, mayEnd }: { user: ManagedUser; mayEnd: boolean }) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const q = useUserSessions(user.id);
  const refetch = () => qc.invalidateQueries({ queryKey: keys.userSessions(user.id) });
  const endOne = useMutation({ mutationFn: (sid: string) => call(ops.endUserSession, { params: { userId: user.id, id: sid } }), onSettled: refetch });
  const endAll = useMutation({ mutationFn: () => call(ops.endUserSessions, { params: { userId: user.id } }), onSettled: refetch });
  const others = (q.data ?? []).filter((s) => !s.isCurrent);
  return (
    <section aria-labelledby={`${id}-h`} className="admin-part">
      <h2 id={`${id}-h`}>{t('staff.users.sessions')}</h2>
      {q.isPending && <Loading />}
      {q.isError && <ErrorBox error={q.error} />}
      {endOne.isError && <ErrorBox error={endOne.error} />}
      {endAll.isError && <ErrorBox error={endAll.error} />}
      {q.data && q.data.length === 0 && <p>{t('staff.users.noSessions')}</p>}
      {q.data && q.data.length > 0 && (
        <div className="table-scroll">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{t('staff.users.device')}</th>
                <th scope="col">{t('staff.users.address')}</th>
                <th scope="col" className="wide-only">
                  {t('staff.users.started')}
                </th>
                <th scope="col">{t('staff.users.lastRequest')}</th>
                <td />
              </tr>
            </thead>
            <tbody>
              {q.data.map((s) => (
                <SessionRow key={s.id} s={s} mayEnd={mayEnd} onEnd={() => endOne.mutate(s.id)} ending={endOne.isPending && endOne.variables === s.id} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {mayEnd && others.length > 0 && (
        <button type="button" className="danger" onClick={() => endAll.mutate()} disabled={endAll.isPending}>
          {t('staff.users.endAll')}
        </button>
      )}
      <p role="status" className="muted">
        {endAll.isSuccess && t('staff.users.endAllDone')}
      </p>
      <JudgectlHint command={`judgectl users sessions ${user.username}  ·  judgectl users sign-out ${user.username} [--session <id>]`} />
    </section>
  );
}
