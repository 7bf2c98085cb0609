import type { IssuedCredentials } from '@judge/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useInstance } from '../../../app/session';
import { useT } from '../../../i18n/I18n';
import { CopyButton } from '../../problem/CopyButton';
import { credentialsCsv, credentialsText } from './temporary';
import { saveText } from '../../../components/saveText';


/**
 * One slip per account to print and cut: the judge's name and address, the login and the password.
 * It hangs off <body> and shows only on paper, where it is all that is printed (users.css).
 */
function Slips({ issued }: { issued: readonly IssuedCredentials[] }) {
  const t = useT();
  const instance = useInstance();
  const address = window.location.origin;
  return createPortal(
    <ul className="temp-slips" aria-label={t('staff.users.temp.slips')}>
      {issued.map((c) => (
        <li key={c.userId} className="temp-slip" data-slip={c.username}>
          <p className="temp-slip-name">{instance.data?.name}</p>
          <dl>
            <dt>{t('staff.users.temp.slipAddress')}</dt>
            <dd>
              <code>{address}</code>
            </dd>
            <dt>{t('staff.users.login')}</dt>
            <dd>
              <code>{c.username}</code>
            </dd>
            <dt>{t('staff.users.password')}</dt>
            <dd>
              <code>{c.password}</code>
            </dd>
          </dl>
          <p className="temp-slip-hint">{t('staff.users.temp.slipHint')}</p>
        </li>
      ))}
    </ul>,
    document.body,
  );
}

/**
 * The temporary accounts just made, shown this once: the logins and passwords live only in the
 * form's state, so leaving the page (or "Done") forgets them. Copied, downloaded as CSV or printed
 * as slips, all made in the browser.
 */
export function TemporaryIssued({ prefix, issued, onForget }: { prefix: string; issued: readonly IssuedCredentials[]; onForget(): void }) {
  const t = useT();
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [saved, setSaved] = useState('');
  // the reader's eyes and focus go to what they must act on now
  useEffect(() => heading.current?.focus(), []);
  const text = credentialsText(issued);
  const download = () => {
    const file = `${prefix}-accounts.csv`;
    saveText(credentialsCsv(issued), file, 'text/csv;charset=utf-8');
    setSaved(t('staff.users.temp.saved', { file }));
  };
  return (
    <section className="issued-temporary" aria-labelledby={`${id}-h`} data-temporary-issued>
      <h3 id={`${id}-h`} ref={heading} tabIndex={-1}>
        {t('staff.users.temp.created', { count: issued.length })}
      </h3>
      <p className="warn-box">{t('staff.users.temp.once')}</p>
      <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={`${id}-h`}>
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">{t('staff.users.login')}</th>
              <th scope="col">{t('staff.users.password')}</th>
            </tr>
          </thead>
          <tbody>
            {issued.map((c) => (
              <tr key={c.userId} data-issued={c.username}>
                <th scope="row">
                  <code>{c.username}</code>
                </th>
                <td>
                  <code className="issued-password">{c.password}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="issued-actions">
        <CopyButton text={text} label={t('staff.users.temp.copyAllLabel')} caption={t('staff.users.temp.copyAll')} />
        <button type="button" onClick={download}>
          {t('staff.users.temp.csv')}
        </button>
        <button type="button" onClick={() => window.print()}>
          {t('staff.users.temp.print')}
        </button>
        <button type="button" onClick={onForget}>
          {t('staff.users.temp.forget')}
        </button>
      </div>
      <p role="status" className="muted">
        {saved}
      </p>
      <Slips issued={issued} />
    </section>
  );
}
