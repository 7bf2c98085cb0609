import type { SubmissionFile } from '@judge/contract';
import { fileUrl } from '../../api/client';
import { Loading } from '../../components/Status';
import { useT } from '../../i18n/I18n';
import { SHOWN_CHARS, useFileText } from './files';

/** What the compiler said (the attempt's `compile` attachment, its author's by default). */
export function CompileOutput({ file, open }: { file: SubmissionFile; open: boolean }) {
  const t = useT();
  const q = useFileText(file.fileId);
  return (
    <section aria-labelledby="compile-title" className="compile-output">
      <h2 id="compile-title">{t('submission.compileOutput')}</h2>
      <details open={open}>
        <summary>{open ? t('submission.compileFailed') : t('submission.compileShow')}</summary>
        {q.isPending && <Loading />}
        {q.data !== undefined && (
          <pre tabIndex={0} aria-label={t('submission.compileOutput')}>
            {q.data.slice(0, SHOWN_CHARS) || t('submission.noOutput')}
          </pre>
        )}
      </details>
    </section>
  );
}

/** The attempt's other attachments the activity lets the reader see (judge log and the like), to download. */
export function OtherAttachments({ files }: { files: SubmissionFile[] }) {
  const t = useT();
  if (!files.length) return null;
  return (
    <section aria-labelledby="attachments-title">
      <h2 id="attachments-title">{t('submission.attachments')}</h2>
      <ul>
        {files.map((f) => (
          <li key={f.fileId}>
            <a href={fileUrl(f.fileId)} download={`${f.name}.txt`}>
              {t('submission.attachment', { name: f.name })}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
