import { useT } from '../../i18n/I18n';

/** The activity filter of a staff list: all of the reader's activities, or one by slug. */
export function ActivitySelect({ activities, value, onChange }: { activities: { id: string; slug: string; name: string }[]; value: string; onChange(slug: string): void }) {
  const t = useT();
  return (
    <label>
      {t('staff.activity')}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('staff.allActivities')}</option>
        {activities.map((a) => (
          <option key={a.id} value={a.slug}>
            {a.name}
          </option>
        ))}
      </select>
    </label>
  );
}
