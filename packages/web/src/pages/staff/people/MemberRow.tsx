import type { Grant, Role } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { ErrorBox } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { Time } from '../../../i18n/time';
import { usePeople } from './issued';
import { builtIn, grantRole, memberKind } from './queries';
import { useRoleLabel } from './useRoleLabel';

interface Props {
  grant: Grant;
  roles: Role[];
  /** Whether the reader may change this membership (grant:update, and not their own). */
  mayGrant: boolean;
  /** Whether the name links to the user's page (user:read:all). */
  linkUser: boolean;
  onDone: (said: string) => void;
}

/** One member: name, role, since when; make co-teacher or participant, or remove (after a confirmation). */
export function MemberRow({ grant: g, roles, mayGrant, linkUser, onDone }: Props) {
  const t = useT();
  const qc = useQueryClient();
  const { activity } = usePeople();
  const [confirming, setConfirming] = useState(false);
  const kind = memberKind(g, roles);
  const refresh = () => qc.invalidateQueries({ queryKey: keys.staffMembers(activity.id) });
  const change = useMutation({
    mutationFn: async (to: 'participant' | 'manager' | 'remove') => {
      if (to === 'remove') await call(ops.deleteGrant, { params: { id: g.id } });
      else await grantRole(g.userId, builtIn(roles, to)!.id, activity.id);
      return to;
    },
    onSuccess: (to) => {
      setConfirming(false);
      onDone(t(`staff.people.done.${to}`, { name: g.userName }));
      void refresh();
    },
  });
  const label = useRoleLabel()(g, roles);
  return (
    <li className="person" data-member={g.userId} data-role={kind}>
      <div className="person-who">
        {linkUser ? <Link to={`/staff/users/${encodeURIComponent(g.userId)}`}>{g.userName}</Link> : <span>{g.userName}</span>}{' '}
        <span className={`badge role-${kind}`}>{label}</span>
      </div>
      <div className="person-since muted">
        {t('staff.people.since')} <Time iso={g.createdAt} timeZone={activity.timeZone} />
      </div>
      {mayGrant && !confirming && (
        <div className="people-actions">
          {kind !== 'manager' && builtIn(roles, 'manager') && (
            <button type="button" aria-label={`${t('staff.people.makeManager')}: ${g.userName}`} disabled={change.isPending} onClick={() => change.mutate('manager')}>
              {t('staff.people.makeManager')}
            </button>
          )}
          {kind === 'manager' && builtIn(roles, 'participant') && (
            <button type="button" aria-label={`${t('staff.people.makeParticipant')}: ${g.userName}`} disabled={change.isPending} onClick={() => change.mutate('participant')}>
              {t('staff.people.makeParticipant')}
            </button>
          )}
          <button type="button" aria-label={`${t('staff.people.remove')}: ${g.userName}`} className="danger" disabled={change.isPending} onClick={() => setConfirming(true)}>
            {t('staff.people.remove')}
          </button>
        </div>
      )}
      {confirming && (
        <div className="confirm" role="group" aria-label={t('staff.people.remove.confirm', { name: g.userName, activity: activity.name })}>
          <span>{t('staff.people.remove.confirm', { name: g.userName, activity: activity.name })}</span>
          <button type="button" className="danger" autoFocus disabled={change.isPending} onClick={() => change.mutate('remove')}>
            {t('staff.people.remove.yes')}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            {t('staff.cancel')}
          </button>
        </div>
      )}
      {change.isError && <ErrorBox error={change.error} />}
    </li>
  );
}
