import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Loading } from '../components/Status';
import { useAccount } from './session';

/** Shows its children to a signed-in user; anyone else goes to sign-in and comes back here after. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const account = useAccount();
  const location = useLocation();
  if (account.isPending) return <Loading />;
  if (!account.data) {
    const next = `${location.pathname}${location.search}${location.hash}`;
    // the home page is where sign-in goes anyway: nothing was asked for, so nothing is carried
    return <Navigate to={next === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  return <>{children}</>;
}
