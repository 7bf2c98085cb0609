import { API_VERSION, OPERATIONS, openApiDocument, ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import { expectedOrigin } from '../../http/context.js';
import { sendBlob } from '../../http/downloads.js';
import type { Bytes } from './instance-files.js';
import type { InstanceService } from './service.js';

export function instanceRoutes(api: Api, instance: InstanceService, version: string, blobs: Bytes): void {
  const openapi = JSON.stringify(openApiDocument(OPERATIONS, API_VERSION));
  api.bind(ops.health, ({ actor }) => instance.health(version, actor));
  api.bind(ops.openapi, ({ ctx }) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'application/json';
    ctx.body = openapi;
  });
  api.bind(ops.getInstance, () => instance.view());
  api.bind(ops.updateInstance, ({ actor, body }) => instance.update(actor, body));
  api.bind(ops.getExternalContent, ({ actor }) => instance.externalContent(actor));
  api.bind(ops.setExternalContent, ({ actor, body }) => instance.setExternalContent(actor, body.hosts));
  api.bind(ops.listAccessKeys, ({ actor }) => instance.accessKeys.list(actor));
  api.bind(ops.setAccessKey, ({ actor, params, body }) => instance.accessKeys.set(actor, params.name, body.value, body.expiresAt));
  api.bind(ops.getAccessKeyValue, ({ actor, params }) => instance.accessKeys.value(actor, params.name));
  api.bind(ops.getRedirects, ({ actor }) => instance.redirects(actor));
  api.bind(ops.setLogo, ({ actor, body }) => instance.branding.setLogo(actor, body.fileId, body.language));
  api.bind(ops.setTheme, ({ actor, body }) => instance.branding.setTheme(actor, body));
  api.bind(ops.resetTheme, ({ actor }) => instance.branding.resetTheme(actor));
  api.bind(ops.listFonts, ({ actor }) => instance.branding.fontNames(actor, () => instance.settings()));
  api.bind(ops.addFont, ({ actor, body }) => instance.branding.addFont(actor, body));
  api.bind(ops.deleteFont, ({ actor, params }) => instance.branding.deleteFont(actor, params.name));
  api.bind(ops.listInstanceDocuments, ({ actor, params }) => instance.documents.history(actor, params.kind));
  api.bind(ops.publishInstanceDocuments, async ({ actor, params, body }) => {
    await instance.documents.publish(actor, params.kind, body.statements, body.validFrom);
    return instance.view();
  });
  api.bind(ops.withdrawInstanceDocuments, async ({ actor, params }) => {
    await instance.documents.withdraw(actor, params.kind);
    return instance.view();
  });
  api.bind(ops.getThemeStylesheet, async ({ ctx }) => {
    const { css, etag } = await instance.themeStylesheet();
    // asked again on every page load, answered 304 until the theme changes
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('ETag', etag);
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (ctx.get('if-none-match') === etag) {
      ctx.status = 304;
      ctx.body = null;
      return;
    }
    ctx.type = 'text/css; charset=utf-8';
    ctx.body = css;
  });
  api.bind(ops.getInstanceFile, async ({ params, ctx }) => {
    sendBlob(ctx, blobs, await instance.publicFile(params.id));
  });
  api.bind(ops.getMaintenance, ({ actor }) => instance.maintenance.state(actor));
  api.bind(ops.setMaintenance, ({ actor, body }) => instance.maintenance.set(actor, body.level, body.reason || undefined));
  api.bind(ops.sendSystemMessage, ({ actor, body }) => instance.broadcast(actor, body.type, body.text));
  api.bind(ops.sendTestMail, ({ actor, body, ctx }) => instance.testMail(actor, body.to, expectedOrigin(ctx, '')));
}
