import type { UserLookup } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { ErrorBox, Loading } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { JudgectlHint } from '../JudgectlHint';
import { usePeople } from './issued';
import { builtIn, grantRole, useActivityRoles, useMembers } from './queries';
import { useRoleLabel } from './useRoleLabel';

/** Finds existing accounts by login, name or address, and enrols them as participants. */
export function EnrolSearch() {
  const t = useT();
  const id = useId();
  const { activity } = usePeople();
  const [draft, setDraft] = useState('');
  const [q, setQ] = useState('');
  const found = useQuery({ queryKey: keys.staffUserSearch(q), queryFn: () => call(ops.lookupUsers, { query: { q } }), enabled: q !== '' });
  return (
    <section className="people-enrol" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('staff.people.enrol.title')}</h3>
      <form
        className="people-search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(draft.trim());
        }}
      >
        <label htmlFor={`${id}-q`}>{t('staff.people.enrol.search')}</label>
        <input id={`${id}-q`} type="search" value={draft} onChange={(e) => setDraft(e.target.value)} maxLength={200} />
        <button type="submit" disabled={!draft.trim()}>
          {t('staff.people.enrol.find')}
        </button>
      </form>
      {q !== '' && found.isPending && <Loading />}
      {found.isError && <ErrorBox error={found.error} />}
      {found.data &&
        (found.data.length === 0 ? (
          <p role="status">{t('staff.people.enrol.none', { q })}</p>
        ) : (
          <ul className="people-list" aria-label={t('staff.people.enrol.results', { q })}>
            {found.data.map((u) => (
              <Candidate key={u.id} user={u} />
            ))}
          </ul>
        ))}
      <JudgectlHint command={`judgectl activities enrol ${activity.slug} USERNAME...`} />
    </section>
  );
}

/** One account found: enrol it, or say what it is in the activity already. */
function Candidate({ user: u }: { user: UserLookup }) {
  const t = useT();
  const qc = useQueryClient();
  const { activity } = usePeople();
  const members = useMembers(activity.id);
  const roles = useActivityRoles(activity.id);
  const enrol = useMutation({
    mutationFn: () => grantRole(u.id, builtIn(roles.data, 'participant')!.id, activity.id),
    onSuccess: () => void qc.invalidateQueries({ queryKey: keys.staffMembers(activity.id) }),
  });
  const roleLabel = useRoleLabel();
  const member = members.data?.find((g) => g.userId === u.id);
  const label = [u.name && u.name !== u.username ? u.name : '', u.email].filter(Boolean).join(' · ');
  return (
    <li className="person" data-candidate={u.username}>
      <div className="person-who">
        <strong>{u.username}</strong> {label && <span className="muted">{label}</span>}
      </div>
      {member ? (
        <span className="muted">{t('staff.people.enrol.already', { role: roleLabel(member, roles.data) })}</span>
      ) : (
        <button type="button" aria-label={`${t('staff.people.enrol.do')}: ${u.username}`} disabled={enrol.isPending || !builtIn(roles.data, 'participant')} onClick={() => enrol.mutate()}>
          {t('staff.people.enrol.do')}
        </button>
      )}
      {enrol.isError && <ErrorBox error={enrol.error} />}
    </li>
  );
}
