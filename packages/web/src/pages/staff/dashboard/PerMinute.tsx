import { useT } from '../../../i18n/I18n';

/**
 * Submissions in each of the last ten minutes as bars, the newest on the right. The bars are a
 * picture of the numbers, which a screen reader gets as a sentence instead.
 */
export function PerMinute({ minutes, total }: { minutes: number[]; total: number }) {
  const t = useT();
  const top = Math.max(1, ...minutes);
  return (
    <>
      <span className="per-minute" aria-hidden="true">
        {minutes.map((n, i) => (
          <span key={i} className="per-minute-bar" style={{ height: `${Math.round((n / top) * 100)}%` }} title={String(n)} />
        ))}
      </span>
      <span className="visually-hidden">{t('staff.dashboard.perMinute', { minutes: minutes.join(', ') })}</span>
      <span className="figure-sub">{t('staff.dashboard.total', { count: total })}</span>
    </>
  );
}
