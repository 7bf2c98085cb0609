import { ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { TemporaryUsersService } from './service.js';

export function temporaryUsersRoutes(api: Api, temporary: TemporaryUsersService): void {
  api.bind(ops.createTemporaryUsers, ({ actor, body }) => temporary.create(actor, body));
}
