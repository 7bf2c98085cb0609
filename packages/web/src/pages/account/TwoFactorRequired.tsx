import { Link } from 'react-router';
import { useInstance } from '../../app/session';
import { useT } from '../../i18n/I18n';
import { useTwoFactor } from './useTwoFactor';

/**
 * That the instance requires two-factor sign-in of this account for permissions it holds, which it
 * lacks until it is on; `link`: where to set it up (a place on this page, or the account page).
 */
export function TwoFactorRequired({ link }: { link?: string }) {
  const t = useT();
  return (
    <p className="warn-box two-factor-required" data-two-factor="required">
      {t('twoFactor.required')}
      {link && (
        <>
          {' '}
          {link.startsWith('#') ? <a href={link}>{t('twoFactor.requiredLink')}</a> : <Link to={link}>{t('twoFactor.requiredLink')}</Link>}
        </>
      )}
    </p>
  );
}

/**
 * The notice where a page refuses the reader, when turning two-factor sign-in on is what it waits
 * for; asked only where the instance requires it for some permission.
 */
export function TwoFactorRequiredHint() {
  const instance = useInstance();
  const q = useTwoFactor(!!instance.data?.requireTwoFactorFor.length);
  return q.data?.required && !q.data.isTwoFactorEnabled ? <TwoFactorRequired link="/account#two-factor" /> : null;
}
