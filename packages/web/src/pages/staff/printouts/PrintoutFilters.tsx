import { useT } from '../../../i18n/I18n';
import { ActivitySelect } from '../ActivitySelect';

/** The queue's state filter: what still needs doing (queued or claimed), one state, or everything. */
export const STATE_CHOICES = ['open', 'queued', 'claimed', 'resolved', 'all'] as const;
export type StateChoice = (typeof STATE_CHOICES)[number];

const LABEL = {
  open: 'staff.p.state.open',
  queued: 'staff.p.state.queued',
  claimed: 'staff.p.state.claimed',
  resolved: 'staff.p.state.resolved',
  all: 'staff.p.state.all',
} as const;

interface Props {
  activities: { id: string; slug: string; name: string }[];
  activity: string;
  state: StateChoice;
  set(next: { activity?: string; state?: StateChoice }): void;
}

export function PrintoutFilters({ activities, activity, state, set }: Props) {
  const t = useT();
  return (
    <form className="staff-filters" role="search" aria-label={t('staff.p.filters')} onSubmit={(e) => e.preventDefault()}>
      <ActivitySelect activities={activities} value={activity} onChange={(slug) => set({ activity: slug })} />
      <label>
        {t('staff.p.state')}
        <select value={state} onChange={(e) => set({ state: e.target.value as StateChoice })}>
          {STATE_CHOICES.map((s) => (
            <option key={s} value={s}>
              {t(LABEL[s])}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}

