import { rankingCsv } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorBox } from '../../../components/Status';
import { useI18n, useT } from '../../../i18n/I18n';
import { rankingQuery } from './useStaffRanking';
import { saveText } from '../../../components/saveText';

const SEPARATORS = { comma: ',', semicolon: ';' } as const;
type Separator = keyof typeof SEPARATORS;


/**
 * Downloads the full standings (the staff view: every result, usernames) as CSV, made by the
 * same code as `judgectl ranking --csv`. A German page suggests semicolons, which a spreadsheet
 * set to German reads as columns.
 */
export function CsvDownload({ slug, seriesId, seriesSlug }: { slug: string; seriesId: string | undefined; seriesSlug: string | undefined }) {
  const t = useT();
  const { lang } = useI18n();
  const qc = useQueryClient();
  const [separator, setSeparator] = useState<Separator>(lang === 'de' ? 'semicolon' : 'comma');
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const download = async () => {
    setError(null);
    try {
      const ranking = await qc.fetchQuery(rankingQuery(slug, seriesId, 'own'));
      const file = `${slug}${seriesSlug ? `-${seriesSlug}` : ''}-standings.csv`;
      saveText(rankingCsv(ranking, { separator: SEPARATORS[separator] }), file, 'text/csv;charset=utf-8');
      setDone(file);
    } catch (e) {
      setError(e);
    }
  };
  return (
    <div className="csv-download">
      <label>
        {t('staff.standings.separator')}
        <select value={separator} onChange={(e) => setSeparator(e.target.value as Separator)}>
          {(Object.keys(SEPARATORS) as Separator[]).map((s) => (
            <option key={s} value={s}>
              {t(`staff.standings.separator.${s}`)}
            </option>
          ))}
        </select>
      </label>
      <button type="button" onClick={() => void download()} aria-describedby="csv-hint">
        {t('staff.standings.download')}
      </button>
      <p id="csv-hint" className="muted">
        {t('staff.standings.downloadHint')}
      </p>
      <p role="status" className="muted">
        {done ? t('staff.standings.downloaded', { file: done }) : ''}
      </p>
      {error !== null && <ErrorBox error={error} />}
    </div>
  );
}
