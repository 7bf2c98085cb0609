import type { ParticipantSeries } from '@judge/contract';
import { useT } from '../../i18n/I18n';

/** Which series' standings to show: all of them together, or one on its own. */
export function SeriesPicker({ series, value, onChange }: { series: ParticipantSeries[]; value: string; onChange(id: string): void }) {
  const t = useT();
  return (
    <label className="series-picker">
      {t('standings.series')}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('standings.allSeries')}</option>
        {series.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
    </label>
  );
}
