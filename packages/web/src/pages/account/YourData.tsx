import type { Account } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { call } from '../../api/client';
import { keys } from '../../api/keys';
import { useInstance } from '../../app/session';
import { useT } from '../../i18n/I18n';
import { DeleteAccount } from './DeleteAccount';

/** The identity providers the account also signs in with: none (and nothing shown) until some are set up. */
function AccountLinks() {
  const t = useT();
  const links = useQuery({ queryKey: keys.accountLinks, queryFn: () => call(ops.listAccountLinks), staleTime: 5 * 60_000 });
  if (!links.data?.length) return null;
  return (
    <div className="account-links">
      <p>{t('account.data.links')}</p>
      <ul>
        {links.data.map((l) => (
          <li key={l.providerSlug}>
            <strong>{l.displayName}</strong>
            {l.accountUrl && (
              <>
                {' · '}
                <a href={l.accountUrl}>{t('account.data.linkAccount')}</a>
              </>
            )}
            {l.deletionUrl && (
              <>
                {' · '}
                <a href={l.deletionUrl}>{t('account.data.linkDelete')}</a>
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * "Your data": everything the judge holds about the caller as a zip (a plain link: the session
 * cookie goes with it and the server names the file), and, when the instance allows it, deleting
 * the account.
 */
export function YourData({ account }: { account: Account }) {
  const t = useT();
  const id = useId();
  const instance = useInstance();
  return (
    <section className="your-data" aria-labelledby={`${id}-h`} data-your-data>
      <h2 id={`${id}-h`}>{t('account.data.title')}</h2>
      <p>
        <a className="export-link" href="/api/v1/account/export" download aria-describedby={`${id}-export`}>
          {t('account.data.export')}
        </a>
      </p>
      <p id={`${id}-export`} className="muted">
        {t('account.data.exportHelp')}
      </p>
      <AccountLinks />
      {account.isLocal && instance.data?.accountDeletionEnabled && <DeleteAccount />}
    </section>
  );
}
