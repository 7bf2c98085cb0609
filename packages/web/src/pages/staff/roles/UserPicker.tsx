import type { UserLookup } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { useT } from '../../../i18n/I18n';
import './user-picker.css';

export const userLabel = (u: UserLookup) => (u.name && u.name !== u.username ? `${u.name} (${u.username})` : u.username);

/**
 * Finds an account by login, name or email (GET /users, at most 20) and picks one with a button;
 * `label` names what the account is chosen for (by default: a user for a grant).
 */
export function UserPicker({ chosen, choose, label }: { chosen: UserLookup | null; choose(u: UserLookup | null): void; label?: string }) {
  const t = useT();
  const id = useId();
  const [text, setText] = useState('');
  const q = useDeferredValue(text.trim());
  const found = useQuery({ queryKey: keys.userLookup(q), queryFn: () => call(ops.lookupUsers, { query: { q } }), enabled: q.length > 0 && !chosen });
  if (chosen) {
    return (
      <p className="chosen-user">
        {t('staff.grants.chosenUser', { user: userLabel(chosen) })}{' '}
        <button type="button" className="link-button" onClick={() => choose(null)}>
          {t('staff.grants.change')}
        </button>
      </p>
    );
  }
  return (
    <div className="user-picker">
      <label htmlFor={`${id}-q`}>
        {label ?? t('staff.grants.findUser')}
        <input id={`${id}-q`} type="search" autoComplete="off" value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      {found.data && found.data.length === 0 && <p className="muted">{t('staff.grants.noMatch')}</p>}
      {found.data && found.data.length > 0 && (
        <ul className="user-matches" aria-label={label ?? t('staff.grants.findUser')}>
          {found.data.map((u) => (
            <li key={u.id}>
              <button type="button" className="link-button" onClick={() => (choose(u), setText(''))}>
                {userLabel(u)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
