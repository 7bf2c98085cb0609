import { ops } from '@judge/sdk/browser';
import { Link, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { ErrorBox } from '../../components/Status';
import { Field } from './Field';
import { resetLink } from './mail-links';
import { useAddressRequest } from './useAddressRequest';
import { useAuthPage } from './useAuthPage';

/**
 * Asks for a reset code. The server answers alike whether an account has the address (so the page
 * cannot tell anyone which addresses have accounts), and so does the page.
 */
export default function ForgotPassword() {
  const { t, linkTo } = useAuthPage('forgot.title');
  const [params] = useSearchParams();
  const { email, setEmail, errors, general, state, submit } = useAddressRequest((address) => call(ops.forgotPassword, { body: { email: address } }), params.get('email') ?? '');

  return (
    <section className="narrow card">
      <h1>{t('forgot.title')}</h1>
      <p>{t('forgot.intro')}</p>
      <form onSubmit={(e) => void submit(e)} className="form" noValidate>
        <Field
          label={t('forgot.email')}
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          hint={t('forgot.noAddress')}
          errors={errors.email}
          autoFocus
        />
        {general !== null && <ErrorBox error={general} />}
        {state === 'sent' && (
          <p className="ok-box" role="status">
            {t('forgot.sent')}
          </p>
        )}
        <button type="submit" className="primary" disabled={state === 'busy'}>
          {state === 'busy' ? t('forgot.busy') : t('forgot.submit')}
        </button>
      </form>
      <p>
        {t('forgot.haveCode')} <Link to={resetLink(email)}>{t('forgot.enterCode')}</Link>
      </p>
      <p>
        <Link to={linkTo('/sign-in')}>{t('forgot.backToSignIn')}</Link>
      </p>
    </section>
  );
}
