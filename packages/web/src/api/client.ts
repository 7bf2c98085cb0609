import { ApiClient, ApiProblem, type CallInput } from '@judge/sdk/browser';
import type { Operation, OperationOutput } from '@judge/contract';
import { hintMaintenance } from './maintenanceHint';

/**
 * The app's one client: same origin, so the browser sends the session cookie and Origin itself,
 * and every permission check is the server's, exactly as over REST.
 */
export const api = new ApiClient({ baseUrl: window.location.origin });

/** Calls an operation; failures throw ApiProblem (or Unreachable when the server is down). */
export function call<O extends Operation>(op: O, input?: CallInput<O>): Promise<OperationOutput<O>> {
  return api.call(op, input).catch((e: unknown) => {
    hintMaintenance(e);
    throw e;
  });
}

export function isProblem(e: unknown, status?: number, code?: string): e is ApiProblem {
  return e instanceof ApiProblem && (status === undefined || e.status === status) && (code === undefined || e.code === code);
}

/** The URL a page uses to show or download a stored file (statements, images, samples, attachments). */
export function fileUrl(fileId: string): string {
  return `/api/v1/files/${encodeURIComponent(fileId)}`;
}
