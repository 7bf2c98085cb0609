import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import { call } from '../api/client';
import { keys } from '../api/keys';
import { useI18n } from '../i18n/I18n';
import { LANGUAGES, type Lang } from '../i18n/define';
import { useLive } from '../live/Live';
import { forgetSessionData, useAccount, useInstance } from './session';

function ConnectionIndicator() {
  const { t } = useI18n();
  const { state } = useLive();
  if (state === 'open') return null;
  return (
    <p className="live-off" role="status" aria-live="polite">
      <span className="dot" aria-hidden="true" /> {state === 'connecting' ? t('app.live.connecting') : t('app.live.off')}
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
  const { t } = useI18n();
  const account = useAccount();
  const instance = useInstance();
  const qc = useQueryClient();
  const navigate = useNavigate();

  async function signOut() {
    try {
      await call(ops.logout);
    } finally {
      forgetSessionData(qc);
      qc.setQueryData(keys.account, null);
      navigate('/sign-in');
    }
  }

  return (
    <>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <header className="site-header">
        <Link to="/" className="brand">
          {instance.data?.name ?? 'Judge'}
        </Link>
        <nav aria-label={t('app.mainNav')}>
          {account.data && <NavLink to="/">{t('app.activities')}</NavLink>}
          {account.data && <NavLink to="/account">{t('app.account')}</NavLink>}
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
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
