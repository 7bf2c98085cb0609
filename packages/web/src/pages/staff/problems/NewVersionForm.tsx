import type { Problem, ProblemVersion } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { useT } from '../../../i18n/I18n';
import { PackageAccepted, PackageRefusal } from './PackageVerdict';
import { UploadBar } from './UploadBar';
import { usePackageUpload } from './usePackageUpload';

/**
 * A package as a new version of a problem, with a note of what changed. Assignments that follow
 * the newest version judge by it from now on; the package's statements replace the previous ones.
 */
export function NewVersionForm({ problem, onCreated }: { problem: Problem; onCreated(v: ProblemVersion): void }) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [note, setNote] = useState('');
  const upload = usePackageUpload<ProblemVersion>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) return;
    await upload.run(file, async (meta) => {
      const v = await call(ops.createProblemVersion, {
        params: { problemId: problem.id },
        body: { ...(note.trim() ? { note: note.trim() } : {}), package: { fileId: meta.id } },
      });
      onCreated(v);
      setNote('');
      return v;
    });
    await qc.invalidateQueries({ queryKey: keys.staffProblem(problem.id) });
  };
  return (
    <details className="new-version">
      <summary>{t('staff.problems.newVersion.title')}</summary>
      <form className="form upload-form" onSubmit={submit}>
        <label htmlFor={`${id}-file`}>{t('staff.problems.new.file')}</label>
        <input id={`${id}-file`} type="file" accept=".zip,application/zip" required onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        <label htmlFor={`${id}-note`}>{t('staff.problems.newVersion.note')}</label>
        <textarea id={`${id}-note`} rows={2} maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
        <button type="submit" className="primary" disabled={!file || upload.busy}>
          {t('staff.problems.newVersion.submit')}
        </button>
      </form>
      <UploadBar phase={upload.phase} progress={upload.progress} />
      {upload.error !== null && <PackageRefusal error={upload.error} />}
      {upload.result && <PackageAccepted version={upload.result} name={problem.name} />}
    </details>
  );
}
