import { Link, useNavigate } from 'react-router';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { usePeople } from './issued';

/**
 * One slip per new account to print and cut: the judge's address, the username and the password.
 * The toolbar does not print; each slip stays whole on its page.
 */
export default function SlipsPage() {
  const t = useT();
  const navigate = useNavigate();
  const { activity, issued, addIssued } = usePeople();
  usePageTitle(t('staff.people.slips.title'));
  const address = window.location.origin;
  return (
    <section className="staff-slips">
      <div className="no-print">
        <h2 className="page-title">{t('staff.people.slips.title')}</h2>
        {issued.length === 0 ? (
          <>
            <p>{t('staff.people.slips.none')}</p>
            <Link to="../people">{t('staff.people.slips.back')}</Link>
          </>
        ) : (
          <>
            <p className="warn">{t('staff.people.issued.once')}</p>
            <div className="people-actions">
              <button type="button" className="primary" onClick={() => window.print()}>
                {t('staff.people.slips.print', { count: issued.length })}
              </button>
              <button
                type="button"
                onClick={() => {
                  addIssued(null);
                  void navigate('../people');
                }}
              >
                {t('staff.people.slips.done')}
              </button>
              <Link to="../people">{t('staff.people.slips.back')}</Link>
            </div>
          </>
        )}
      </div>
      <ul className="slips" aria-label={t('staff.people.slips.list')}>
        {issued.map((c) => (
          <li key={c.userId} className="slip" data-slip={c.username}>
            <p className="slip-activity">{activity.name}</p>
            {c.name && <p className="slip-name">{c.name}</p>}
            <dl>
              <dt>{t('staff.people.slips.address')}</dt>
              <dd>
                <code>{address}</code>
              </dd>
              <dt>{t('staff.people.username')}</dt>
              <dd>
                <code data-field="username">{c.username}</code>
              </dd>
              <dt>{t('staff.people.password')}</dt>
              <dd>
                <code data-field="password">{c.password}</code>
              </dd>
            </dl>
            <p className="slip-hint">{t('staff.people.slips.hint')}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
