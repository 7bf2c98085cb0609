import type { IdentityProvider } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { draftOf, requestOf } from './draft';

export function useProviders() {
  return useQuery({ queryKey: keys.providers, queryFn: () => call(ops.listProviders) });
}

/** One provider as it is now (GET /identity/providers/{id}), read afresh when its form opens. */
export function useProvider(id: string) {
  return useQuery({ queryKey: [...keys.providers, id], queryFn: () => call(ops.getProvider, { params: { id } }), staleTime: 0 });
}

/** After a change: the list, and GET /instance, whose `providers` the sign-in page shows. */
function useRefresh() {
  const qc = useQueryClient();
  return () => Promise.all([qc.invalidateQueries({ queryKey: keys.providers }), qc.invalidateQueries({ queryKey: keys.instance })]);
}

export function useDeleteProvider(p: IdentityProvider, onDone: () => void) {
  const refresh = useRefresh();
  return useMutation({ mutationFn: () => call(ops.deleteProvider, { params: { id: p.id } }), onSuccess: async () => (await refresh(), onDone()) });
}

/** Switches a provider off (what a refused removal suggests): PUT with everything as it is, secrets kept. */
export function useDisableProvider(p: IdentityProvider, onDone: () => void) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: () => call(ops.updateProvider, { params: { id: p.id }, body: { ...requestOf(draftOf(p)), enabled: false } }),
    onSuccess: async () => (await refresh(), onDone()),
  });
}
