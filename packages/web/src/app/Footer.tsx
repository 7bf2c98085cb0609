import { Link } from 'react-router';
import { useI18n } from '../i18n/I18n';
import { documentsFor, FOOTER_KINDS, type InstanceLook } from './instance-look';

/** Links to the instance's documents in force (terms, privacy, ...), in the page's language where there is one. */
export function Footer({ look }: { look: InstanceLook | undefined }) {
  const { t, lang } = useI18n();
  const docs = documentsFor(look, lang);
  const shown = FOOTER_KINDS.flatMap((k) => (docs.has(k) ? [docs.get(k)!] : []));
  if (!shown.length) return null;
  return (
    <footer className="site-footer">
      <nav aria-label={t('app.documents')}>
        {shown.map((d) => (
          <Link key={d.kind} to={`/documents/${d.kind}`}>
            {d.title}
          </Link>
        ))}
      </nav>
    </footer>
  );
}
