import { ops } from '@judge/sdk/browser';
import { useEffect, useState } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { call } from '../api/client';
import { useI18n } from '../i18n/I18n';
import { LANGUAGES, type Lang } from '../i18n/define';
import { useLive } from '../live/Live';
import { Banners } from './Banners';
import { Footer } from './Footer';
import { logoFor, useThemeStylesheet } from './instance-look';
import { useAccount, useInstance } from './session';
import { StaffNavLink } from './StaffNavLink';

/** How long the first connection may take before the page says live updates are off. */
const FIRST_CONNECT_GRACE_MS = 3000;

/**
 * Says so while live updates are off (the socket lost and reconnecting, or not up in time at the
 * start); the first connect of a page load is not worth a flash of warning.
 */
function ConnectionIndicator() {
  const { t } = useI18n();
  const { state } = useLive();
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    if (state === 'open') return setSettled(true);
    const timer = setTimeout(() => setSettled(true), FIRST_CONNECT_GRACE_MS);
    return () => clearTimeout(timer);
  }, [state]);
  if (state === 'open' || !settled) return null;
  return (
    <p className="live-off" role="status" aria-live="polite" data-live={state}>
      <span className="dot" aria-hidden="true" /> {t('app.live.off')}
    </p>
  );
}

function LanguageSwitch() {
  const { t, lang, setLang } = useI18n();
  return (
    <label className="lang-switch">
      <span className="visually-hidden">{t('app.language')}</span>
      <select value={lang} onChange={(e) => setLang(e.target.value as Lang)} aria-label={t('app.language')}>
        {Object.entries(LANGUAGES).map(([code, name]) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The frame of every page: header with navigation, language and account, the live indicator, the page. */
export function Layout() {
  const { t, lang } = useI18n();
  const account = useAccount();
  const instance = useInstance();
  useThemeStylesheet(instance.data);
  const logo = logoFor(instance.data, lang);

  async function signOut() {
    await call(ops.logout).catch(() => undefined);
    // a fresh page rather than a route change: nothing of this user stays in memory (a lab PC is
    // shared), and no guarded page lingers to ask to come back to after the next sign-in
    window.location.assign('/sign-in');
  }

  return (
    <>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <header className="site-header">
        <Link to="/" className="brand">
          {/* the name beside it says what the logo is: the image itself is decoration */}
          {logo && <img src={logo} alt="" />}
          {instance.data?.name ?? 'Judge'}
        </Link>
        <nav aria-label={t('app.mainNav')}>
          {account.data && <NavLink to="/">{t('app.activities')}</NavLink>}
          {account.data && <NavLink to="/account">{t('app.account')}</NavLink>}
          {account.data && <StaffNavLink />}
        </nav>
        <div className="header-tools">
          <LanguageSwitch />
          {account.data ? (
            <button type="button" className="link-button" onClick={() => void signOut()}>
              {t('app.signOut')}
            </button>
          ) : (
            <Link to="/sign-in">{t('app.signIn')}</Link>
          )}
        </div>
      </header>
      {account.data && <ConnectionIndicator />}
      <Banners />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer look={instance.data} />
    </>
  );
}
