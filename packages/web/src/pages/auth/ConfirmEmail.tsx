import { ops } from '@judge/sdk/browser';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { call, isProblem } from '../../api/client';
import { keys } from '../../api/keys';
import { useAccount } from '../../app/session';
import { ErrorBox, Loading } from '../../components/Status';
import { usePageTitle } from '../../components/usePageTitle';
import { useT } from '../../i18n/I18n';
import { ResendForm, TypeCodeForm } from './ConfirmForms';

/** What shows the account's address reads it again: it has just changed or become confirmed. */
function addressChanged(qc: QueryClient): void {
  void qc.invalidateQueries({ queryKey: keys.account });
  void qc.invalidateQueries({ queryKey: keys.manageInfo });
}

/** The address is confirmed (or is now the new one), and where to go from here. */
function Confirmed({ changedEmail }: { changedEmail?: string | undefined }) {
  const t = useT();
  const account = useAccount();
  return (
    <>
      <h1>{t('confirm.done.title')}</h1>
      <p className="ok-box" role="status">
        {changedEmail ? t('confirm.changed', { email: changedEmail }) : t('confirm.done')}
      </p>
      <p>{account.data ? <Link to="/account">{t('confirm.toAccount')}</Link> : <Link to="/sign-in">{t('confirm.signIn')}</Link>}</p>
    </>
  );
}

/** Why the link's code was refused, and the way on: a new message, or (for a new address) the account page. */
function Refused({ error, changedEmail }: { error: unknown; changedEmail: string | undefined }) {
  const t = useT();
  const account = useAccount();
  let text: string | undefined;
  if (isProblem(error, undefined, 'identity.code.invalid')) text = t('confirm.invalid');
  else if (isProblem(error, undefined, 'user.email.taken')) text = t('confirm.taken', { email: changedEmail ?? '' });
  return (
    <>
      <h1>{t('confirm.title')}</h1>
      {text ? (
        <div className="error-box" role="alert">
          {text}
        </div>
      ) : (
        <ErrorBox error={error} />
      )}
      {changedEmail ? (
        // a new confirmation goes to the address in use, never to the one being changed to: a new code
        // for the new address comes from asking for the change again
        <p>
          {t('confirm.changeAgain')} <Link to="/account">{t('confirm.toAccount')}</Link>
        </p>
      ) : (
        <ResendForm intro={t('confirm.resendIntro')} initialEmail={account.data?.email} />
      )}
    </>
  );
}

/**
 * Confirms at once with the link's code. The answer is a query, so that it is asked once however
 * often the page renders (React runs effects twice in development, and the code is single-use) and
 * is still shown when the reader comes back to the page.
 */
function FromLink({ userId, code, changedEmail }: { userId: string; code: string; changedEmail: string | undefined }) {
  const t = useT();
  const qc = useQueryClient();
  const confirm = useQuery({
    queryKey: keys.confirmEmail(userId, code, changedEmail),
    queryFn: async () => {
      await call(ops.confirmEmail, { query: { userId, code, ...(changedEmail ? { changedEmail } : {}) } });
      addressChanged(qc);
      return true;
    },
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  if (confirm.isPending) {
    return (
      <>
        <h1>{t('confirm.title')}</h1>
        <Loading label={t('confirm.busy')} />
      </>
    );
  }
  if (confirm.isError) return <Refused error={confirm.error} changedEmail={changedEmail} />;
  return <Confirmed changedEmail={changedEmail} />;
}

/** No link followed: the signed-in reader may type the code; anyone may ask for a new message. */
function WithoutLink() {
  const t = useT();
  const qc = useQueryClient();
  const account = useAccount();
  const [confirmed, setConfirmed] = useState<{ changedEmail?: string | undefined } | null>(null);
  if (confirmed) return <Confirmed changedEmail={confirmed.changedEmail} />;
  if (account.isPending) return <Loading />;
  const a = account.data;
  return (
    <>
      <h1>{t('confirm.title')}</h1>
      {a?.email && a.emailConfirmed && <p className="notice">{t('confirm.already', { email: a.email })}</p>}
      {a && (
        <TypeCodeForm
          userId={a.userId}
          currentEmail={a.email ?? ''}
          onConfirmed={(changedEmail) => {
            addressChanged(qc);
            setConfirmed({ changedEmail });
          }}
        />
      )}
      {!a?.emailConfirmed && <ResendForm intro={a ? t('confirm.resendAsk') : t('confirm.resendIntro')} initialEmail={a?.email} primary={!a} />}
      {!a && (
        <p>
          {t('confirm.typeSignIn')} <Link to={`/sign-in?next=${encodeURIComponent('/confirm-email')}`}>{t('confirm.signInFirst')}</Link>
        </p>
      )}
    </>
  );
}

/**
 * `/confirm-email`: the page a confirmation message links to (`?userId=…&code=…`, with
 * `&changedEmail=…` for a change of address), or, without a code, where to ask for a new message.
 */
export default function ConfirmEmail() {
  const t = useT();
  usePageTitle(t('confirm.title'));
  const [params] = useSearchParams();
  const userId = params.get('userId');
  const code = params.get('code');
  const changedEmail = params.get('changedEmail') || undefined;
  return <section className="narrow card">{userId && code ? <FromLink userId={userId} code={code} changedEmail={changedEmail} /> : <WithoutLink />}</section>;
}
