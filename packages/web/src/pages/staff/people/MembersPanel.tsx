import type { Grant } from '@judge/contract';
import { useId, useState } from 'react';
import { useAccount } from '../../../app/session';
import { ErrorBox, Loading } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { JudgectlHint } from '../JudgectlHint';
import { usePeople } from './issued';
import { MemberRow } from './MemberRow';
import { memberKind, useActivityRoles, useMembers } from './queries';

type Shown = 'all' | 'participant' | 'manager';

/** The activity's members, filtered by role and name, each with what the reader may do to them. */
export function MembersPanel({ mayGrant, mayReadUsers }: { mayGrant: boolean; mayReadUsers: boolean }) {
  const t = useT();
  const id = useId();
  const { activity } = usePeople();
  const me = useAccount().data?.userId;
  const members = useMembers(activity.id);
  const roles = useActivityRoles(activity.id);
  const [shown, setShown] = useState<Shown>('all');
  const [text, setText] = useState('');
  const [said, setSaid] = useState('');
  if (members.isPending || roles.isPending) return <Loading />;
  if (members.isError) return <ErrorBox error={members.error} />;
  if (roles.isError) return <ErrorBox error={roles.error} />;
  const all = members.data;
  const count = (k: Shown) => all.filter((g) => k === 'all' || memberKind(g, roles.data) === k).length;
  const needle = text.trim().toLowerCase();
  const list = all.filter((g) => (shown === 'all' || memberKind(g, roles.data) === shown) && (!needle || g.userName.toLowerCase().includes(needle)));
  return (
    <section className="people-members" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('staff.people.members.title')}</h3>
      <p className="muted">{t('staff.people.members.counts', { participants: count('participant'), managers: count('manager'), all: count('all') })}</p>
      <div className="staff-filters">
        <label>
          {t('staff.people.members.show')}
          <select value={shown} onChange={(e) => setShown(e.target.value as Shown)}>
            <option value="all">{t('staff.people.members.all')}</option>
            <option value="participant">{t('staff.people.members.participants')}</option>
            <option value="manager">{t('staff.people.members.managers')}</option>
          </select>
        </label>
        <label>
          {t('staff.people.members.filter')}
          <input type="search" value={text} onChange={(e) => setText(e.target.value)} maxLength={200} />
        </label>
      </div>
      <p role="status" aria-live="polite" className="people-said">
        {said}
      </p>
      {list.length === 0 ? (
        <p>{all.length === 0 ? t('staff.people.members.empty') : t('staff.people.members.noMatch')}</p>
      ) : (
        <ul className="people-list">
          {list.map((g: Grant) => (
            <MemberRow key={g.id} grant={g} roles={roles.data} mayGrant={mayGrant && g.userId !== me} linkUser={mayReadUsers} onDone={setSaid} />
          ))}
        </ul>
      )}
      <JudgectlHint command={`judgectl activities members ${activity.slug}`} />
    </section>
  );
}
