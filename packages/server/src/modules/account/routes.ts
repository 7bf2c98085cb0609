import { ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import { clearSessionCookie } from '../../http/session-cookie.js';
import type { AccountService } from './service.js';

export function accountRoutes(api: Api, account: AccountService, publicUrl: string): void {
  api.bind(ops.getAccount, ({ actor }) => account.get(actor));
  api.bind(ops.updateAccount, ({ actor, body }) => account.update(actor, body));
  api.bind(ops.changePassword, ({ actor, body }) => account.changePassword(actor, body.currentPassword, body.newPassword));
  api.bind(ops.listAccountSessions, ({ actor }) => account.sessions(actor));
  api.bind(ops.endAccountSession, ({ actor, params }) => account.endSession(actor, params.id));
  api.bind(ops.listAccountLinks, ({ actor }) => account.links(actor));
  api.bind(ops.exportAccount, async ({ actor, ctx }) => {
    const { stream, fileName } = await account.export(actor);
    ctx.set('Content-Type', 'application/zip');
    ctx.set('Content-Disposition', `attachment; filename="${fileName.replace(/["\\]/g, '_')}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = stream;
  });
  api.bind(ops.deleteAccount, async ({ actor, body, ctx }) => {
    await account.deleteOwn(actor, body.password);
    if (actor.via === 'cookie') clearSessionCookie(ctx, publicUrl);
  });
}
