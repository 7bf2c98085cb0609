import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import type { MessageKey } from '../../i18n/catalogue';
import { useT } from '../../i18n/I18n';

/** What the provider's sign-in came back with (`/sign-in?provider=SLUG&error=CODE`, decisions §4), in words. */
const ERRORS: Record<string, MessageKey> = {
  'provider.ticket.missing': 'auth.provider.error.ticket',
  'provider.refused': 'auth.provider.error.refused',
  'provider.unmapped': 'auth.provider.error.unmapped',
  'provider.subject.missing': 'auth.provider.error.refused',
  'provider.disabled': 'auth.provider.error.refused',
  maintenance: 'auth.provider.error.maintenance',
};

export const challengeUrl = (slug: string, next: string, remember: boolean) =>
  `/api/v1/identity/providers/${encodeURIComponent(slug)}/challenge?returnUrl=${encodeURIComponent(next)}&remember=${remember}`;

/**
 * Whether the page goes straight on to the instance's redirect provider (signInRedirectProvider,
 * registerRedirectProvider): not when `?local=1` asks for the page itself (staff without an
 * account there), and not when the provider just sent the browser back refused, which would loop.
 */
export function useProviderRedirect(slug: string | undefined, next: string, remember: boolean): boolean {
  const [params] = useSearchParams();
  const go = !!slug && params.get('local') !== '1' && !params.get('error');
  useEffect(() => {
    if (go) window.location.replace(challengeUrl(slug!, next, remember));
  }, [go, slug, next, remember]);
  return go;
}

/**
 * A button for each identity provider the instance offers (a plain link: the server sends the
 * browser on to the provider and back), and why the last try through one did not sign in.
 */
export function ProviderSignIn({ providers, next, remember, local }: { providers: { slug: string; displayName: string }[]; next: string; remember: boolean; local: boolean }) {
  const t = useT();
  const [params] = useSearchParams();
  const failed = params.get('error');
  const from = providers.find((p) => p.slug === params.get('provider'));
  return (
    <>
      {failed && (
        <div className="error-box" role="alert" data-provider-error={failed}>
          {t(ERRORS[failed] ?? 'auth.provider.error.refused', { name: from?.displayName ?? params.get('provider') ?? '' })}
        </div>
      )}
      {providers.length > 0 && (
        <div className="provider-sign-in">
          {providers.map((p) => (
            <a key={p.slug} className="button provider" href={challengeUrl(p.slug, next, remember)}>
              {t('auth.provider.signInWith', { name: p.displayName })}
            </a>
          ))}
          {local && <p className="provider-or">{t('auth.provider.or')}</p>}
        </div>
      )}
    </>
  );
}
