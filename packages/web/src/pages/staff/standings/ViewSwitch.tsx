import { useT } from '../../../i18n/I18n';
import type { RankingView } from './useStaffRanking';

/** The switch between the full standings and what participants see: two radio buttons, one group. */
export function ViewSwitch({ value, onChange }: { value: RankingView; onChange(v: RankingView): void }) {
  const t = useT();
  return (
    <fieldset className="view-switch">
      <legend className="visually-hidden">{t('staff.standings.view')}</legend>
      {(['own', 'public'] as const).map((v) => (
        <label key={v} className={value === v ? 'on' : undefined}>
          <input type="radio" name="standings-view" value={v} checked={value === v} onChange={() => onChange(v)} />
          {t(`staff.standings.view.${v}`)}
        </label>
      ))}
    </fieldset>
  );
}
