import { ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { DashboardService } from './service.js';

export function dashboardRoutes(api: Api, dashboard: DashboardService): void {
  api.bind(ops.getActivityDashboard, ({ actor, params }) => dashboard.get(actor, params.idOrSlug));
}
