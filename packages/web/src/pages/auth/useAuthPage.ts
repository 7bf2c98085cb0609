import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { safeNext, startOver, useAccount, useInstance } from '../../app/session';
import { usePageTitle } from '../../components/usePageTitle';
import { useT } from '../../i18n/I18n';
import type { MessageKey } from '../../i18n/catalogue';

/**
 * What the sign-in and registration pages share: where to go on afterwards (`?next=`, kept when
 * the reader switches between the two), and entering with the new session.
 */
export function useAuthPage(title: MessageKey) {
  const t = useT();
  usePageTitle(t(title));
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const navigate = useNavigate();
  const qc = useQueryClient();
  return {
    t,
    next,
    /** Whether the page was reached on the way to another page (a lost session, a link): the home page is no such page. */
    onTheWay: next !== '/',
    account: useAccount(),
    instance: useInstance(),
    /** The other auth page, still carrying where to go on. */
    linkTo: (path: string) => `${path}${params.get('next') ? `?next=${encodeURIComponent(next)}` : ''}`,
    /** The socket and every screen start over with the new session's account. */
    enter: async () => startOver(qc, await call(ops.getAccount)),
    goOn: () => navigate(next, { replace: true }),
  };
}
