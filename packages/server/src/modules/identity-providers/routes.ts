import { ApiError, ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import { clientAddress, expectedOrigin } from '../../http/context.js';
import { setSessionCookie } from '../../http/session-cookie.js';
import type { IdentityProvidersService } from './service.js';
import { ProviderRefusal, type ProviderSignIn } from './sign-in.js';

export function identityProvidersRoutes(api: Api, providers: IdentityProvidersService, signIn: ProviderSignIn, opts: { publicUrl: string; cookieDays: number }): void {
  api.bind(ops.listProviders, ({ actor }) => providers.list(actor));
  api.bind(ops.createProvider, async ({ actor, body, ctx }) => {
    const p = await providers.create(actor, body);
    ctx.set('Location', `/api/v1/identity/providers/${p.id}`);
    return p;
  });
  api.bind(ops.getProvider, ({ actor, params }) => providers.get(actor, params.id));
  api.bind(ops.updateProvider, ({ actor, params, body }) => providers.update(actor, params.id, body));
  api.bind(ops.deleteProvider, ({ actor, params }) => providers.remove(actor, params.id));

  api.bind(ops.providerChallenge, async ({ params, query, ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(await signIn.challenge(params.slug, expectedOrigin(ctx, opts.publicUrl), query.returnUrl, query.remember === 'true'));
  });
  // the browser comes back from the provider: a refusal goes to the sign-in page, which says why
  api.bind(ops.providerCallback, async ({ params, ctx }) => {
    ctx.set('Cache-Control', 'no-store');
    try {
      const done = await signIn.callback(params.slug, new URLSearchParams(ctx.querystring), { ipAddress: clientAddress(ctx), userAgent: ctx.get('user-agent') || undefined });
      setSessionCookie(ctx, done.issued.cookie!, { publicUrl: opts.publicUrl, maxAgeMs: done.remember ? opts.cookieDays * 86_400_000 : undefined });
      ctx.redirect(done.returnUrl);
    } catch (e) {
      const code = e instanceof ProviderRefusal ? e.code : e instanceof ApiError && e.code === 'server.maintenance' ? 'maintenance' : undefined;
      if (!code) throw e;
      ctx.redirect(`/sign-in?provider=${encodeURIComponent(params.slug)}&error=${encodeURIComponent(code)}`);
    }
  });
}
