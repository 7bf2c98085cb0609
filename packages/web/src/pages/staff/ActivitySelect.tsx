import { useT } from '../../i18n/I18n';

/**
 * The activity filter of a staff list: all of the reader's activities, or one by slug. A form that
 * picks an activity for something names the choice (`label`) and what the empty choice means (`empty`).
 */
export function ActivitySelect({
  activities,
  value,
  onChange,
  label,
  empty,
}: {
  activities: { id: string; slug: string; name: string }[];
  value: string;
  onChange(slug: string): void;
  label?: string;
  empty?: string;
}) {
  const t = useT();
  return (
    <label>
      {label ?? t('staff.activity')}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{empty ?? t('staff.allActivities')}</option>
        {activities.map((a) => (
          <option key={a.id} value={a.slug}>
            {a.name}
          </option>
        ))}
      </select>
    </label>
  );
}
