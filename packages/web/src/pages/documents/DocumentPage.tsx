import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { documentsFor, instanceFileUrl } from '../../app/instance-look';
import { useInstance } from '../../app/session';
import { ErrorBox, Loading } from '../../components/Status';
import { usePageTitle } from '../../components/usePageTitle';
import { useI18n } from '../../i18n/I18n';
import '../problem/problem.css';

type Shown = { kind: 'html'; html: string } | { kind: 'text'; text: string } | { kind: 'pdf' };

/**
 * A document's bytes as the page shows them: Markdown rendered and HTML sanitized as a statement
 * is (the same renderer, loaded on demand), text as it is, a PDF in the browser's viewer.
 */
async function shown(fileId: string): Promise<Shown> {
  const res = await fetch(instanceFileUrl(fileId));
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const type = res.headers.get('content-type') ?? '';
  if (type.startsWith('application/pdf')) return { kind: 'pdf' };
  const text = await res.text();
  if (type.startsWith('text/markdown')) return { kind: 'html', html: (await import('../problem/markdown')).renderMarkdown(text) };
  if (type.startsWith('text/html')) return { kind: 'html', html: (await import('../problem/sanitize')).sanitizeStatement(text) };
  return { kind: 'text', text };
}

/** One of the instance's documents (terms, privacy, ...), in the page's language where there is one; no sign-in needed. */
export default function DocumentPage() {
  const { kind = '' } = useParams();
  const { t, lang } = useI18n();
  const instance = useInstance();
  const doc = documentsFor(instance.data, lang).get(kind);
  usePageTitle(doc?.title ?? t('app.documents'));
  const body = useQuery({ queryKey: ['instance-document', doc?.fileId], queryFn: () => shown(doc!.fileId), enabled: !!doc, staleTime: Infinity });
  if (instance.isPending) return <Loading />;
  if (instance.isError) return <ErrorBox error={instance.error} />;
  if (!doc) return <p className="notice">{t('app.document.missing')}</p>;
  return (
    <article className="instance-document" lang={doc.language}>
      {body.isPending && <Loading />}
      {body.isError && <ErrorBox error={body.error} />}
      {body.data?.kind === 'html' && <div className="statement-body" dangerouslySetInnerHTML={{ __html: body.data.html }} />}
      {body.data?.kind === 'text' && (
        <>
          <h1 className="page-title">{doc.title}</h1>
          <pre className="statement-text">{body.data.text}</pre>
        </>
      )}
      {body.data?.kind === 'pdf' && (
        <>
          <h1 className="page-title">{doc.title}</h1>
          <iframe src={instanceFileUrl(doc.fileId)} title={doc.title} />
          <a href={instanceFileUrl(doc.fileId)} download>
            {t('app.document.download')}
          </a>
        </>
      )}
    </article>
  );
}
