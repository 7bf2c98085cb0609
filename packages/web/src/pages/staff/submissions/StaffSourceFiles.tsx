import type { SubmissionDetail, SubmissionFile } from '@judge/contract';
import { fileUrl } from '../../../api/client';
import { ErrorBox, Loading } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { useFileText } from '../../submissions/files';
import { LazyEditor } from '../../submit/LazyEditor';
import { JudgectlHint } from '../JudgectlHint';

/** The submitted files, highlighted read-only (CodeMirror, loaded with the first one), each with its download. */
export function StaffSourceFiles({ s }: { s: SubmissionDetail }) {
  const t = useT();
  return (
    <section aria-labelledby="staff-source-title" className="source-files">
      <h2 id="staff-source-title">{t('staff.sub.source')}</h2>
      {s.files.map((f) => (
        <SourceFile key={f.fileId} file={f} language={s.language} />
      ))}
      <JudgectlHint command={`judgectl submissions source ${s.id}`} />
    </section>
  );
}

function SourceFile({ file, language }: { file: SubmissionFile; language?: string }) {
  const t = useT();
  const text = useFileText(file.fileId);
  const lang = file.language ?? language;
  return (
    <figure className="source-file" data-file={file.fileName}>
      <figcaption>
        <span className="file-name">{file.fileName}</span>{' '}
        <a href={fileUrl(file.fileId)} download={file.fileName}>
          {t('staff.sub.download', { name: file.fileName })}
        </a>
      </figcaption>
      {text.isPending && <Loading />}
      {text.isError && <ErrorBox error={text.error} />}
      {text.data !== undefined && (
        <LazyEditor value={text.data} readOnly fileName={file.fileName} language={lang ? { id: lang, extensions: [] } : undefined} label={t('staff.sub.sourceOf', { name: file.fileName })} />
      )}
    </figure>
  );
}
