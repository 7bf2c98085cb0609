import { ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { LimitStore } from '../../http/limits.js';
import { clientAddress, expectedOrigin, type Ctx } from '../../http/context.js';
import { mailLanguage } from '../../mail/account-messages.js';
import { perAddress } from '../../http/middleware.js';
import type { IdentityService } from './service.js';
import { clearSessionCookie, MACHINE_COOKIE, setSessionCookie } from '../../http/session-cookie.js';

export function identityRoutes(
  api: Api,
  identity: IdentityService,
  limits: LimitStore,
  opts: { loginAttemptsPerMinute: number; cookieDays: number; publicUrl: string },
): void {
  // Every attempt per address, sized for a lab behind one NAT address; failed ones have their own,
  // smaller budgets (SignInBudget), which are what slow password guessing before the lockout does.
  const limit = perAddress(limits.limiter({ points: opts.loginAttemptsPerMinute, duration: 60, keyPrefix: 'sign-in' }));

  // where the mailed links point: publicUrl, else the address this request came to (docs/configuration.md)
  const place = (ctx: Ctx) => ({ site: expectedOrigin(ctx, opts.publicUrl), language: mailLanguage(ctx.get('accept-language')) });
  // the flows that mail an address share the sign-in budget per address: they are as open to abuse
  api.bind(ops.register, async ({ body, ctx }) => identity.register(body, place(ctx)), [limit]);
  api.bind(ops.forgotPassword, ({ body, ctx }) => identity.mail.forgotPassword(body.email, place(ctx)), [limit]);
  api.bind(ops.resendConfirmationEmail, ({ body, ctx }) => identity.mail.resendConfirmation(body.email, place(ctx)), [limit]);
  api.bind(ops.resetPassword, ({ body }) => identity.mail.resetPassword(body.email, body.resetCode, body.newPassword), [limit]);
  api.bind(ops.confirmEmail, ({ query }) => identity.mail.confirmEmail(query.userId, query.code, query.changedEmail), [limit]);

  api.bind(
    ops.login,
    async ({ query, body, ctx }) => {
      const persistent = query.useCookies === 'true';
      const browserSession = !persistent && query.useSessionCookies === 'true';
      const kind = persistent ? 'cookie' : browserSession ? 'sessionCookie' : 'bearer';
      const second = { code: body.twoFactorCode, recoveryCode: body.twoFactorRecoveryCode, machine: ctx.cookies.get(MACHINE_COOKIE) };
      const issued = await identity.login(body.email, body.password, kind, { ipAddress: clientAddress(ctx), userAgent: ctx.get('user-agent') || undefined }, second);
      if (issued.machine) setSessionCookie(ctx, issued.machine.cookie, { publicUrl: opts.publicUrl, maxAgeMs: issued.machine.maxAgeMs }, MACHINE_COOKIE);
      if (issued.cookie) {
        setSessionCookie(ctx, issued.cookie, { publicUrl: opts.publicUrl, maxAgeMs: persistent ? opts.cookieDays * 86_400_000 : undefined });
        ctx.status = 200;
        ctx.body = '';
        return;
      }
      return identity.tokenResponse(issued);
    },
    [limit],
  );

  api.bind(ops.refresh, ({ body }) => identity.refresh(body.refreshToken));

  api.bind(ops.logout, async ({ actor, ctx }) => {
    await identity.logout(actor);
    if (actor.via === 'cookie') clearSessionCookie(ctx, opts.publicUrl);
  });

  api.bind(ops.manageTwoFactor, async ({ actor, body, ctx }) => {
    const { state, forgotMachine } = await identity.manageTwoFactor(actor, body, ctx.cookies.get(MACHINE_COOKIE));
    if (forgotMachine) clearSessionCookie(ctx, opts.publicUrl, MACHINE_COOKIE);
    return state;
  });

  api.bind(ops.getManageInfo, ({ actor }) => identity.manageInfo(actor));
  api.bind(ops.updateManageInfo, async ({ actor, body, ctx }) => {
    await identity.mail.updateOwn(actor, body, place(ctx));
    return identity.manageInfo(actor);
  });
}
