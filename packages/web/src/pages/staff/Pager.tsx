import { useT } from '../../i18n/I18n';

/** Previous and next page of a staff list, with where the reader is. */
export function Pager({ page, pages, go }: { page: number; pages: number; go(page: number): void }) {
  const t = useT();
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={t('staff.pages')}>
      <button type="button" onClick={() => go(page - 1)} disabled={page <= 1}>
        {t('staff.previous')}
      </button>
      <span>{t('staff.pageOf', { page, pages })}</span>
      <button type="button" onClick={() => go(page + 1)} disabled={page >= pages}>
        {t('staff.next')}
      </button>
    </nav>
  );
}
