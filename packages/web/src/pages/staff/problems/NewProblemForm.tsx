import type { FileMeta, Problem, ProblemVersion } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { call } from '../../../api/client';
import { useT } from '../../../i18n/I18n';
import { JudgectlHint } from '../JudgectlHint';
import { PackageAccepted, PackageRefusal } from './PackageVerdict';
import { slugOfFileName } from './slug';
import { UploadBar } from './UploadBar';
import { usePackageUpload } from './usePackageUpload';

interface Created {
  problem: Problem;
  version: ProblemVersion;
}

/**
 * Makes a problem of an uploaded package, as `judgectl problems import` does: the problem, then its
 * first version from the package, whose statements the server takes from it. A package the server
 * refuses leaves no problem behind (the new, empty problem is deleted again).
 */
async function createFromPackage(meta: FileMeta, slug: string, name: string): Promise<Created> {
  const problem = await call(ops.createProblem, { body: { slug, name: name || slug, type: 'standard-io@1' } });
  let version: ProblemVersion;
  try {
    version = await call(ops.createProblemVersion, { params: { problemId: problem.id }, body: { note: 'uploaded in the browser', package: { fileId: meta.id } } });
  } catch (e) {
    // the refusal is what the reader needs to see; a problem left behind is visible in the library
    await call(ops.deleteProblem, { params: { id: problem.id } }).catch(() => undefined);
    throw e;
  }
  // no name given: the package's own (problem.yaml's name) is better than the slug
  if (!name && version.package?.name && version.package.name !== problem.name) {
    const renamed = await call(ops.updateProblem, { params: { id: problem.id }, body: { slug: problem.slug, name: version.package.name, type: problem.type } });
    return { problem: { ...renamed, currentVersion: version.version, versionCount: 1 }, version };
  }
  return { problem: { ...problem, currentVersion: version.version, versionCount: 1 }, version };
}

/** Upload a package as a new problem of the library, with a progress bar and the server's verdict. */
export function NewProblemForm() {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [slug, setSlug] = useState('');
  const [name, setName] = useState('');
  const upload = usePackageUpload<Created>();
  const pick = (f: File | null) => {
    setFile(f);
    if (f && !slug) setSlug(slugOfFileName(f.name));
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) return;
    await upload.run(file, (meta) => createFromPackage(meta, slug.trim(), name.trim()));
    await qc.invalidateQueries({ queryKey: ['staffProblems'] });
  };
  return (
    <section className="card package-upload" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('staff.problems.new.title')}</h2>
      <form className="form upload-form" onSubmit={submit}>
        <label htmlFor={`${id}-file`}>{t('staff.problems.new.file')}</label>
        <input id={`${id}-file`} type="file" accept=".zip,application/zip" required onChange={(e) => pick(e.target.files?.[0] ?? null)} />
        <label htmlFor={`${id}-slug`}>{t('staff.problems.new.slug')}</label>
        <input id={`${id}-slug`} value={slug} required pattern="[A-Za-z0-9][A-Za-z0-9_\-]*" maxLength={64} onChange={(e) => setSlug(e.target.value)} />
        <label htmlFor={`${id}-name`}>{t('staff.problems.new.name')}</label>
        <input id={`${id}-name`} value={name} maxLength={200} placeholder={t('staff.problems.new.namePlaceholder')} onChange={(e) => setName(e.target.value)} />
        <button type="submit" className="primary" disabled={!file || upload.busy}>
          {t('staff.problems.new.submit')}
        </button>
      </form>
      <UploadBar phase={upload.phase} progress={upload.progress} />
      {upload.error !== null && <PackageRefusal error={upload.error} />}
      {upload.result && (
        <>
          <PackageAccepted version={upload.result.version} name={upload.result.problem.name} />
          <Link to={`/staff/problems/${upload.result.problem.id}`}>{t('staff.problems.new.open', { name: upload.result.problem.name })}</Link>
        </>
      )}
      <JudgectlHint command="judgectl problems import PACKAGE.zip --slug SLUG" />
    </section>
  );
}
