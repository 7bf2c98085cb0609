import { librarySlug, slugFromName } from '@judge/sdk/browser';
import { useState, type FormEvent } from 'react';
import { useT } from '../../../i18n/I18n';
import type { ArchivePackage } from './archive';
import { RankingSelect, TimeZoneField } from './common-fields';
import { DateField, TextField } from './fields';
import { ImportOutcomeBox, ImportProgress } from './ImportProgress';
import { useContestImport } from './useContestImport';

const ownZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The packages found in the archive, with the slugs they will get. */
function FoundPackages({ packages, contestSlug }: { packages: ArchivePackage[]; contestSlug: string }) {
  const t = useT();
  return (
    <div className="table-scroll">
      <table className="import-found">
        <caption>{t('staff.activities.new.import.found', { count: packages.length })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('staff.activities.new.import.slug')}</th>
            <th scope="col">{t('staff.activities.new.import.name')}</th>
            <th scope="col">{t('staff.activities.new.import.library')}</th>
          </tr>
        </thead>
        <tbody>
          {packages.map((p) => (
            <tr key={p.path}>
              <td>{p.slug}</td>
              <td>{p.name ?? '—'}</td>
              <td>
                <code>{librarySlug(contestSlug, p.slug)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A contest from a zip of ICPC problem packages, read and unpacked in the browser and sent by the
 * steps `judgectl contest import` takes: each top-level folder (or zip) with a problem.yaml is a
 * problem, its assignment slug from the name, its library slug CONTEST-NAME.
 */
export function ImportForm() {
  const t = useT();
  const run = useContestImport();
  const [slug, setSlug] = useState('');
  const [name, setName] = useState('');
  const [rankingType, setRanking] = useState<'icpc' | 'points'>('icpc');
  const [timeZone, setZone] = useState(ownZone);
  const [start, setStart] = useState('');
  const [duration, setDuration] = useState('300');
  const [seriesSlug, setSeries] = useState('main');
  const [problem, setProblem] = useState<string | null>(null);
  const reading = run.reading;
  const packages = reading && 'packages' in reading ? reading.packages : [];
  const theSlug = slug || slugFromName(run.fileName);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!packages.length) return setProblem(t('staff.activities.new.import.chooseFirst'));
    if (duration.trim() && !/^\d+$/.test(duration.trim())) return setProblem(t('staff.activities.new.import.badDuration'));
    setProblem(null);
    void run.start({ slug: theSlug, name: name || theSlug, rankingType, timeZone: timeZone.trim(), start, durationMinutes: duration.trim() ? Number(duration) : undefined, seriesSlug }, packages);
  };
  const zone = { zone: timeZone };
  const busy = run.phase === 'running';
  return (
    <form className="form staff-form" onSubmit={onSubmit} noValidate aria-label={t('staff.activities.new.import')}>
      <div className="field">
        <label htmlFor="import-zip">{t('staff.activities.new.import.file')}</label>
        <input id="import-zip" type="file" accept=".zip,application/zip" aria-describedby="import-zip-hint" disabled={busy} onChange={(e) => void run.choose(e.target.files?.[0])} />
        <small id="import-zip-hint" className="muted">
          {t('staff.activities.new.import.file.hint')}
        </small>
      </div>
      {reading && 'error' in reading && (
        <p className="error-box" role="alert">
          {t(`staff.activities.new.import.error.${reading.error}`)}
        </p>
      )}
      {packages.length > 0 && run.phase === 'choosing' && <FoundPackages packages={packages} contestSlug={theSlug} />}
      {reading && 'skipped' in reading && reading.skipped.length > 0 && <p className="muted">{t('staff.activities.new.import.skipped', { list: reading.skipped.join(', ') })}</p>}
      <TextField label={t('staff.activities.slug')} hint={t('staff.activities.new.slug.hint')} value={theSlug} onChange={setSlug} disabled={busy} />
      <TextField label={t('staff.activities.name')} hint={t('staff.activities.new.import.name.hint')} value={name} onChange={setName} disabled={busy} />
      <RankingSelect value={rankingType} onChange={setRanking} />
      <TimeZoneField value={timeZone} onChange={setZone} disabled={busy} />
      <DateField label={t('staff.activities.start')} hint={t('staff.activities.new.import.start.hint', zone)} value={start} onChange={setStart} />
      <TextField label={t('staff.activities.new.import.duration')} hint={t('staff.activities.new.import.duration.hint')} value={duration} onChange={setDuration} inputMode="numeric" disabled={busy} />
      <TextField label={t('staff.activities.new.import.series')} hint={t('staff.activities.new.import.series.hint')} value={seriesSlug} onChange={setSeries} disabled={busy} />
      {problem && (
        <p className="error-box" role="alert">
          {problem}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy || run.phase === 'finished'}>
          {packages.length ? t('staff.activities.new.import.create', { count: packages.length }) : t('staff.activities.new.import.createNone')}
        </button>
      </div>
      {run.phase !== 'choosing' && (
        <section aria-label={t('staff.activities.new.import.progress')}>
          <ImportProgress packages={packages} progress={run.progress} />
          {run.outcome && (
            <ImportOutcomeBox outcome={run.outcome} progress={run.progress} packages={packages} phase={run.phase} removal={run.removal} failure={run.failure} onRemove={() => void run.removeAll()} />
          )}
        </section>
      )}
    </form>
  );
}
