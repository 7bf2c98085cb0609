import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { useT } from '../../../i18n/I18n';
import { usePeople } from './issued';

/** The passwords of the accounts just created, once, with the way to their slips. */
export function IssuedPasswords() {
  const t = useT();
  const { issued, addIssued } = usePeople();
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = issued.length > 0;
  // the reader's eyes and focus go to what they must act on now
  useEffect(() => {
    if (shown) heading.current?.focus();
  }, [shown]);
  if (!shown) return null;
  return (
    <section className="card issued" aria-labelledby="issued-heading">
      <h3 id="issued-heading" ref={heading} tabIndex={-1}>
        {t('staff.people.issued.title', { count: issued.length })}
      </h3>
      <p className="warn">{t('staff.people.issued.once')}</p>
      <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="issued-heading">
        <table>
          <thead>
            <tr>
              <th scope="col">{t('staff.people.username')}</th>
              <th scope="col">{t('staff.people.name')}</th>
              <th scope="col">{t('staff.people.password')}</th>
            </tr>
          </thead>
          <tbody>
            {issued.map((c) => (
              <tr key={c.userId}>
                <td>{c.username}</td>
                <td>{c.name}</td>
                <td>
                  <code className="password">{c.password}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="people-actions">
        <Link className="button-link" to="../slips">
          {t('staff.people.issued.slips')}
        </Link>
        <button type="button" onClick={() => addIssued(null)}>
          {t('staff.people.issued.forget')}
        </button>
      </div>
    </section>
  );
}
