import { useT } from '../i18n/I18n';

/** Previous and next page of a list, with where the reader is; the buttons say which way they go. */
export function Pager({ page, pages, go, previous, next }: { page: number; pages: number; go(page: number): void; previous: string; next: string }) {
  const t = useT();
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={t('app.pages')}>
      <button type="button" onClick={() => go(page - 1)} disabled={page <= 1}>
        {previous}
      </button>
      <span>{t('app.pageOf', { page, pages })}</span>
      <button type="button" onClick={() => go(page + 1)} disabled={page >= pages}>
        {next}
      </button>
    </nav>
  );
}
