import type { LtiPlatform } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { draftOf, requestOf } from './draft';

export function usePlatforms() {
  return useQuery({ queryKey: keys.ltiPlatforms, queryFn: () => call(ops.listLtiPlatforms) });
}

/** One platform as it is now, read afresh when its form opens. */
export function usePlatform(id: string) {
  return useQuery({ queryKey: [...keys.ltiPlatforms, id], queryFn: () => call(ops.getLtiPlatform, { params: { id } }), staleTime: 0 });
}

/** What to enter in the LMS for a platform; the same for every platform but for the public URL, so kept a while. */
export function useRegistration(id: string, enabled: boolean) {
  return useQuery({ queryKey: keys.ltiRegistration(id), queryFn: () => call(ops.getLtiRegistration, { params: { id } }), enabled, staleTime: 5 * 60_000 });
}

export function useDeletePlatform(p: LtiPlatform, onDone: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => call(ops.deleteLtiPlatform, { params: { id: p.id } }),
    onSuccess: async () => (await qc.invalidateQueries({ queryKey: keys.ltiPlatforms }), onDone()),
  });
}

/** Switches a platform off (what a refused removal suggests): its logins and launches are refused, its scores held. */
export function useDisablePlatform(p: LtiPlatform, onDone: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => call(ops.updateLtiPlatform, { params: { id: p.id }, body: { ...requestOf(draftOf(p)), enabled: false } }),
    onSuccess: async () => (await qc.invalidateQueries({ queryKey: keys.ltiPlatforms }), onDone()),
  });
}
