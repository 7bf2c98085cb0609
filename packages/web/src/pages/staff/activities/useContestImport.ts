import { useState } from 'react';
import { readArchive, type ArchivePackage, type ArchiveReading } from './archive';
import { removeMade, runImport, type ImportOutcome, type ImportPlan, type PackageProgress } from './import-run';
import { useRefetchActivity } from './queries';

export type Phase = 'choosing' | 'running' | 'finished' | 'removed';

/** The life of one import: the archive read, each package's progress, the outcome, and removing what it made. */
export function useContestImport() {
  const refetch = useRefetchActivity();
  const [reading, setReading] = useState<ArchiveReading | null>(null);
  const [fileName, setFileName] = useState('');
  const [progress, setProgress] = useState<PackageProgress[]>([]);
  const [outcome, setOutcome] = useState<ImportOutcome | null>(null);
  const [phase, setPhase] = useState<Phase>('choosing');
  const [removal, setRemoval] = useState<string[] | null>(null);
  const [failure, setFailure] = useState<unknown>(null);

  const choose = async (file: File | undefined) => {
    setOutcome(null);
    setPhase('choosing');
    setFileName(file?.name ?? '');
    setReading(file ? readArchive(new Uint8Array(await file.arrayBuffer())) : null);
  };

  const start = async (plan: Omit<ImportPlan, 'packages'>, packages: ArchivePackage[]) => {
    setPhase('running');
    setFailure(null);
    setRemoval(null);
    setProgress(packages.map((p) => ({ step: 'waiting', sent: 0, total: p.zip.length })));
    try {
      const result = await runImport({ ...plan, packages }, (i, p) => setProgress((all) => all.map((x, j) => (j === i ? p : x))));
      setOutcome(result);
    } catch (e) {
      // a failure before anything was made (the name check could not be asked)
      setFailure(e);
      setOutcome({ made: [] });
    }
    setPhase('finished');
    await refetch();
  };

  const removeAll = async () => {
    if (!outcome) return;
    setRemoval(await removeMade(outcome.made));
    setPhase('removed');
    await refetch();
  };

  return { reading, fileName, progress, outcome, phase, removal, failure, choose, start, removeAll };
}
