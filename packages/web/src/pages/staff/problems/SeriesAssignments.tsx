import type { Series } from '@judge/contract';
import { useT } from '../../../i18n/I18n';
import { inOrder } from './assignment';
import { AssignmentRow } from './AssignmentRow';
import { AttachForm } from './AttachForm';

/** One series: its problems in letter order, and a problem from the library added to it. */
export function SeriesAssignments({ activitySlug, series, mayAttach }: { activitySlug: string; series: Series; mayAttach: boolean }) {
  const t = useT();
  const problems = inOrder(series.problems);
  const titleId = `series-${series.id}`;
  return (
    <section className="card series-assignments" aria-labelledby={titleId} data-series={series.slug}>
      <h3 id={titleId}>{series.name}</h3>
      {problems.length === 0 ? (
        <p className="muted">{t('staff.problems.assign.none')}</p>
      ) : (
        <ol className="assignment-list">
          {problems.map((p, i) => (
            <AssignmentRow key={p.id} activitySlug={activitySlug} series={series} ordered={problems} index={i} mayEdit={mayAttach} />
          ))}
        </ol>
      )}
      {mayAttach && <AttachForm series={series} count={problems.length} />}
    </section>
  );
}
