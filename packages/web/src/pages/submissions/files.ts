import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { keys } from '../../api/keys';

/** Shown text is cut here: a page that holds megabytes of output helps nobody (the download has it all). */
export const SHOWN_CHARS = 256 * 1024;

/** A stored file as text (files never change, so it is fetched once). */
export function useFileText(fileId: string | undefined) {
  return useQuery({
    queryKey: keys.file(fileId ?? ''),
    enabled: !!fileId,
    staleTime: Infinity,
    queryFn: async () => new TextDecoder().decode(await call(ops.downloadFile, { params: { id: fileId! } })),
  });
}
