import { API_VERSION, OPERATIONS, openApiDocument, ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import { expectedOrigin } from '../../http/context.js';
import type { InstanceService } from './service.js';

export function instanceRoutes(api: Api, instance: InstanceService, version: string): void {
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
  api.bind(ops.getMaintenance, ({ actor }) => instance.maintenance.state(actor));
  api.bind(ops.setMaintenance, ({ actor, body }) => instance.maintenance.set(actor, body.level, body.reason || undefined));
  api.bind(ops.sendSystemMessage, ({ actor, body }) => instance.broadcast(actor, body.type, body.text));
  api.bind(ops.sendTestMail, ({ actor, body, ctx }) => instance.testMail(actor, body.to, expectedOrigin(ctx, '')));
}
