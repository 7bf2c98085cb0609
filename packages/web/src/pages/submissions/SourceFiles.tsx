import type { LanguageChoice, SubmissionFile } from '@judge/contract';
import { fileUrl } from '../../api/client';
import { ErrorBox, Loading } from '../../components/Status';
import { useT } from '../../i18n/I18n';
import { LazyEditor } from '../submit/LazyEditor';
import { useFileText } from './files';

/** The submitted files, each highlighted read-only, with a download link. */
export function SourceFiles({ files, language }: { files: SubmissionFile[]; language?: LanguageChoice }) {
  const t = useT();
  return (
    <section aria-labelledby="source-title" className="source-files">
      <h2 id="source-title">{t('submission.source')}</h2>
      {files.map((f) => (
        <SourceFile key={f.fileId} file={f} language={language} label={t('submission.sourceOf', { name: f.fileName })} />
      ))}
    </section>
  );
}

function SourceFile({ file, language, label }: { file: SubmissionFile; language?: LanguageChoice; label: string }) {
  const t = useT();
  const text = useFileText(file.fileId);
  return (
    <figure className="source-file">
      <figcaption>
        <span className="file-name">{file.fileName}</span>{' '}
        <a href={fileUrl(file.fileId)} download={file.fileName}>
          {t('submission.download', { name: file.fileName })}
        </a>
      </figcaption>
      {text.isPending && <Loading />}
      {text.isError && <ErrorBox error={text.error} />}
      {text.data !== undefined && <LazyEditor value={text.data} readOnly language={language} fileName={file.fileName} label={label} />}
    </figure>
  );
}
