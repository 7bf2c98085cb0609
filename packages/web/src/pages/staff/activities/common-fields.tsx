import { useId } from 'react';
import { useT } from '../../../i18n/I18n';
import { SelectField, TextField } from './fields';
import { timeZones } from './zoned';

type Ranking = 'icpc' | 'points';
type Join = 'closed' | 'password' | 'open';

/** How the standings count, with its help. */
export function RankingSelect({ value, onChange, errors }: { value: Ranking; onChange: (v: Ranking) => void; errors?: string[] | undefined }) {
  const t = useT();
  return (
    <SelectField
      label={t('staff.activities.ranking')}
      hint={t('staff.activities.ranking.hint')}
      errors={errors}
      value={value}
      onChange={onChange}
      options={[
        { value: 'icpc', label: t('staff.activities.ranking.icpc') },
        { value: 'points', label: t('staff.activities.ranking.points') },
      ]}
    />
  );
}

/** Who may join, with its help. */
export function JoinSelect({ value, onChange, errors }: { value: Join; onChange: (v: Join) => void; errors?: string[] | undefined }) {
  const t = useT();
  return (
    <SelectField
      label={t('staff.activities.joinPolicy')}
      hint={t('staff.activities.joinPolicy.hint')}
      errors={errors}
      value={value}
      onChange={onChange}
      options={[
        { value: 'closed', label: t('staff.activities.join.closed') },
        { value: 'password', label: t('staff.activities.join.password') },
        { value: 'open', label: t('staff.activities.join.open') },
      ]}
    />
  );
}

/** An IANA time zone, typed with the browser's zones as suggestions. */
export function TimeZoneField({ value, onChange, errors, disabled }: { value: string; onChange: (v: string) => void; errors?: string[] | undefined; disabled?: boolean }) {
  const t = useT();
  const list = useId();
  return (
    <>
      <TextField label={t('staff.activities.timeZone')} hint={t('staff.activities.timeZone.hint')} errors={errors} value={value} onChange={onChange} list={list} autoComplete="off" disabled={disabled} />
      <datalist id={list}>
        {timeZones().map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
    </>
  );
}
