import type { FileMeta } from '@judge/contract';
import { useState } from 'react';
import { uploadWithProgress, type UploadProgress } from './uploadWithProgress';

export type UploadPhase = 'idle' | 'uploading' | 'checking' | 'done' | 'failed';

/**
 * The life of one package upload: the bytes going up (with how far they are), then the server
 * checking the package, then its verdict: the result, or the refusal it ended with.
 */
export function usePackageUpload<R>() {
  const [phase, setPhase] = useState<UploadPhase>('idle');
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [result, setResult] = useState<R | null>(null);
  const [error, setError] = useState<unknown>(null);
  /** Uploads file, then hands the stored file to `check` (the server's operations on it). */
  const run = async (file: File, check: (meta: FileMeta) => Promise<R>) => {
    setPhase('uploading');
    setProgress({ sent: 0, total: file.size });
    setResult(null);
    setError(null);
    try {
      const meta = await uploadWithProgress(file, setProgress);
      setPhase('checking');
      setResult(await check(meta));
      setPhase('done');
    } catch (e) {
      setError(e);
      setPhase('failed');
    }
  };
  return { phase, progress, result, error, run, busy: phase === 'uploading' || phase === 'checking' };
}
