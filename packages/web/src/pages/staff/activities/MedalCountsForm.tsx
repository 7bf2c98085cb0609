import type { Activity, AwardRules } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { useT } from '../../../i18n/I18n';
import { Refusal } from './Refusal';

const KINDS = ['gold', 'silver', 'bronze', 'extraBronze'] as const;

/** The activity's medal counts (decisions §24), saved on their own; the defaults restored on request. */
export function MedalCountsForm({ activity }: { activity: Activity }) {
  const t = useT();
  const qc = useQueryClient();
  const [counts, setCounts] = useState<Record<keyof AwardRules, string>>(() => ({
    gold: String(activity.awardRules.gold),
    silver: String(activity.awardRules.silver),
    bronze: String(activity.awardRules.bronze),
    extraBronze: String(activity.awardRules.extraBronze),
  }));
  const [error, setError] = useState<unknown>(null);
  const save = async (awardRules: AwardRules | null) => {
    setError(null);
    try {
      const a = await call(ops.updateActivity, { params: { idOrSlug: activity.slug }, body: { slug: activity.slug, awardRules } });
      setCounts({ gold: String(a.awardRules.gold), silver: String(a.awardRules.silver), bronze: String(a.awardRules.bronze), extraBronze: String(a.awardRules.extraBronze) });
      await qc.invalidateQueries({ queryKey: keys.staffActivity(activity.slug) });
    } catch (e) {
      setError(e);
    }
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    // the server refuses what is not a whole number (422), said under the form
    void save({ gold: Number(counts.gold), silver: Number(counts.silver), bronze: Number(counts.bronze), extraBronze: Number(counts.extraBronze) });
  };
  return (
    <form className="form staff-form medal-counts" onSubmit={onSubmit} noValidate aria-labelledby="medals-heading">
      <h4 id="medals-heading">{t('awards.medals')}</h4>
      <p className="muted">{t('awards.medals.hint')}</p>
      <div className="medal-fields">
        {KINDS.map((k) => (
          <div className="field" key={k}>
            <label htmlFor={`medals-${k}`}>{t(`awards.medals.${k}`)}</label>
            <input id={`medals-${k}`} type="number" min={0} max={1000} inputMode="numeric" value={counts[k]} onChange={(e) => setCounts({ ...counts, [k]: e.target.value })} />
          </div>
        ))}
      </div>
      <Refusal error={error} />
      <div className="form-actions">
        <button type="submit">{t('awards.medals.save')}</button>
        <button type="button" className="link-button" onClick={() => void save(null)}>
          {t('awards.medals.default')}
        </button>
      </div>
    </form>
  );
}
