import { useT } from '../../../i18n/I18n';
import { CheckField, DateField, SelectField, TextArea, TextField } from './fields';
import type { SettingsDraft } from './settings-draft';
import { JoinSelect, RankingSelect, TimeZoneField } from './common-fields';

export interface SectionProps {
  d: SettingsDraft;
  set: (patch: Partial<SettingsDraft>) => void;
  /** The server's (or the page's) words about each field. */
  errors: Record<string, string[]>;
}

/** The kinds of activity the judge knows (the type tag's name@version). */
export const KINDS = ['contest@1', 'course@1'] as const;

export function GeneralFields({ d, set, errors, slug }: SectionProps & { slug: string }) {
  const t = useT();
  return (
    <fieldset>
      <legend>{t('staff.activities.general')}</legend>
      <TextField label={t('staff.activities.name')} hint={t('staff.activities.name.hint')} errors={errors.name} value={d.name} onChange={(name) => set({ name })} required />
      <p className="field">
        <span className="field-label">{t('staff.activities.slug')}</span> <code>{slug}</code>
        <small className="muted">{t('staff.activities.slug.fixed')}</small>
      </p>
      <SelectField
        label={t('staff.activities.kind')}
        hint={t('staff.activities.kind.hint')}
        errors={errors.type}
        value={d.type}
        onChange={(type) => set({ type })}
        options={[...new Set([...KINDS, d.type])].map((k) => ({ value: k, label: k === 'course@1' ? t('staff.activities.kind.course') : k === 'contest@1' ? t('staff.activities.kind.contest') : k }))}
      />
      <RankingSelect value={d.rankingType} onChange={(rankingType) => set({ rankingType })} errors={errors.rankingType} />
      <TimeZoneField value={d.timeZone} onChange={(timeZone) => set({ timeZone })} errors={errors.timeZone} />
      <DateField label={t('staff.activities.start')} hint={t('staff.activities.start.hint', { zone: d.timeZone })} errors={errors.startDate} value={d.startDate} onChange={(startDate) => set({ startDate })} />
      <DateField label={t('staff.activities.end')} hint={t('staff.activities.end.hint', { zone: d.timeZone })} errors={errors.endDate} value={d.endDate} onChange={(endDate) => set({ endDate })} />
    </fieldset>
  );
}

export function JoinFields({ d, set, errors }: SectionProps) {
  const t = useT();
  return (
    <fieldset>
      <legend>{t('staff.activities.joining')}</legend>
      <JoinSelect value={d.joinPolicy} onChange={(joinPolicy) => set({ joinPolicy })} errors={errors.joinPolicy} />
      {d.joinPolicy === 'password' && (
        <TextField label={t('staff.activities.joinPassword')} hint={t('staff.activities.joinPassword.hint')} errors={errors.joinPassword} value={d.joinPassword} onChange={(joinPassword) => set({ joinPassword })} autoComplete="off" />
      )}
      <CheckField label={t('staff.activities.unlisted')} hint={t('staff.activities.unlisted.hint')} errors={errors.unlisted} checked={d.unlisted} onChange={(unlisted) => set({ unlisted })} />
    </fieldset>
  );
}

export function ParticipantFields({ d, set, errors }: SectionProps) {
  const t = useT();
  const show = (k: keyof SettingsDraft['show']) => (v: boolean) => set({ show: { ...d.show, [k]: v } });
  return (
    <fieldset>
      <legend>{t('staff.activities.participants')}</legend>
      <CheckField label={t('staff.activities.questions')} hint={t('staff.activities.questions.hint')} checked={d.questions} onChange={(questions) => set({ questions })} />
      <CheckField label={t('staff.activities.printouts')} hint={t('staff.activities.printouts.hint')} checked={d.printouts} onChange={(printouts) => set({ printouts })} />
      <CheckField label={t('staff.activities.sampleRuns')} hint={t('staff.activities.sampleRuns.hint')} checked={d.sampleRuns} onChange={(sampleRuns) => set({ sampleRuns })} />
      <SelectField
        label={t('staff.activities.scoreVisibility')}
        hint={t('staff.activities.scoreVisibility.hint')}
        errors={errors.scoreVisibility}
        value={d.scoreVisibility}
        onChange={(scoreVisibility) => set({ scoreVisibility })}
        options={[
          { value: 'everyone', label: t('staff.activities.scores.everyone') },
          { value: 'participantOnly', label: t('staff.activities.scores.participantOnly') },
          { value: 'managersOnly', label: t('staff.activities.scores.managersOnly') },
        ]}
      />
      <CheckField label={t('staff.activities.showCompile')} hint={t('staff.activities.showCompile.hint')} checked={d.show.compile} onChange={show('compile')} errors={errors.attachmentVisibility} />
      <CheckField label={t('staff.activities.showDetails')} hint={t('staff.activities.showDetails.hint')} checked={d.show.details} onChange={show('details')} />
      <CheckField label={t('staff.activities.showLog')} hint={t('staff.activities.showLog.hint')} checked={d.show.log} onChange={show('log')} />
      <CheckField label={t('staff.activities.hideEnded')} hint={t('staff.activities.hideEnded.hint')} checked={d.hideEndedSeriesProblems} onChange={(hideEndedSeriesProblems) => set({ hideEndedSeriesProblems })} />
      <CheckField label={t('staff.activities.showGroupMembers')} hint={t('staff.activities.showGroupMembers.hint')} checked={d.showGroupMembers} onChange={(showGroupMembers) => set({ showGroupMembers })} />
      <CheckField label={t('staff.activities.publicScoreboard')} hint={t('staff.activities.publicScoreboard.hint')} checked={d.publicScoreboard} onChange={(publicScoreboard) => set({ publicScoreboard })} />
    </fieldset>
  );
}

export function LimitFields({ d, set, errors }: SectionProps) {
  const t = useT();
  return (
    <fieldset>
      <legend>{t('staff.activities.limits')}</legend>
      <TextField label={t('staff.activities.maxSubmissions')} hint={t('staff.activities.maxSubmissions.hint')} errors={errors.maxSubmissionsPerProblem} value={d.maxSubmissionsPerProblem} onChange={(maxSubmissionsPerProblem) => set({ maxSubmissionsPerProblem })} inputMode="numeric" />
      <TextField label={t('staff.activities.maxUploadBytes')} hint={t('staff.activities.maxUploadBytes.hint')} errors={errors.maxUploadBytes} value={d.maxUploadBytes} onChange={(maxUploadBytes) => set({ maxUploadBytes })} inputMode="numeric" />
      <TextField label={t('staff.activities.maxAttachments')} hint={t('staff.activities.maxAttachments.hint')} errors={errors.maxAttachments} value={d.maxAttachments} onChange={(maxAttachments) => set({ maxAttachments })} inputMode="numeric" />
      <TextField label={t('staff.activities.runnerTags')} hint={t('staff.activities.runnerTags.hint')} errors={errors.runnerTags} value={d.runnerTags} onChange={(runnerTags) => set({ runnerTags })} />
      <TextArea label={t('staff.activities.props')} hint={t('staff.activities.props.hint')} errors={errors.props} value={d.props} onChange={(props) => set({ props })} rows={3} />
    </fieldset>
  );
}
