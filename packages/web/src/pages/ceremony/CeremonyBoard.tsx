import type { Ceremony, CeremonyStep, RankingCell } from '@judge/contract';
import { useEffect, useRef } from 'react';
import { useT } from '../../i18n/I18n';
import { columnsOf } from '../standings/model';
import type { Scene, ShownRow } from './replay';

/** One cell: +k / −n (icpc) or the points; a hidden cell shows how many submissions wait behind it. */
function Cell({ kind, c, revealing }: { kind: Ceremony['rankingType']; c: RankingCell; revealing: boolean }) {
  const t = useT();
  const hidden = c.frozen > 0;
  const cls = ['cell', c.solved ? 'ok' : c.attempts > 0 ? 'bad' : '', hidden ? 'hidden' : '', revealing ? 'revealing' : ''].filter(Boolean).join(' ');
  let text = '';
  if (kind === 'icpc' && c.solved) text = c.attempts > 1 ? `+${c.attempts - 1}` : '+';
  else if (kind === 'icpc' && c.attempts > 0) text = `−${c.attempts}`;
  else if (kind === 'points' && c.points !== undefined) text = String(c.points);
  return (
    <span className={cls} data-problem={c.problemId} title={hidden ? t('ceremony.hidden', { count: c.frozen }) : undefined}>
      {text}
      {hidden && <span className="hidden-count">{c.frozen}?</span>}
    </span>
  );
}

function Row({ r, i, kind, last, working }: { r: ShownRow; i: number; kind: Ceremony['rankingType']; last: CeremonyStep | undefined; working: boolean }) {
  const moved = last?.kind === 'reveal' && last.userId === r.userId;
  const cls = ['ceremony-row', r.done ? 'done' : '', working ? 'working' : '', moved ? 'moved' : ''].filter(Boolean).join(' ');
  return (
    <li className={cls} style={{ transform: `translateY(calc(${i} * var(--row-h)))` }} data-user={r.userId} data-rank={r.rank} data-pos={i}>
      <span className="rank">{r.rank}</span>
      <span className="name">{r.userName}</span>
      <span className="solved">{r.solved}</span>
      <span className="total">{kind === 'icpc' ? r.penalty : r.points}</span>
      <span className="cells">
        {r.cells.map((c) => (
          <Cell key={c.problemId} kind={kind} c={c} revealing={moved && last.problemId === c.problemId} />
        ))}
      </span>
    </li>
  );
}

/**
 * The standings of one scene. Rows are placed by transform, keyed by participant, so that a row
 * that moves up glides there; the row being worked on is kept in view.
 */
export function CeremonyBoard({ c, scene }: { c: Ceremony; scene: Scene }) {
  const t = useT();
  const list = useRef<HTMLOListElement>(null);
  const columns = columnsOf(c.problems);
  useEffect(() => {
    const focus = scene.at >= 0 ? scene.at : 0;
    const el = list.current?.parentElement;
    if (!el) return;
    const rowH = el.scrollHeight / Math.max(1, scene.rows.length + 1);
    el.scrollTo({ top: Math.max(0, (focus + 1) * rowH - el.clientHeight / 2), behavior: 'smooth' });
  }, [scene.at, scene.rows.length]);
  const order = new Map(scene.rows.map((r, i) => [r.userId, i]));
  // rendered in a fixed order (the start's): a moved row keeps its element, so its transform animates
  return (
    <div className="ceremony-board" style={{ ['--rows' as string]: scene.rows.length, ['--cols' as string]: columns.length }}>
      <div className="ceremony-row ceremony-header" aria-hidden="true">
        <span className="rank">{t('ceremony.rank')}</span>
        <span className="name">{t('ceremony.name')}</span>
        <span className="solved">{t('ceremony.solved')}</span>
        <span className="total">{c.rankingType === 'icpc' ? t('ceremony.penalty') : t('ceremony.points')}</span>
        <span className="cells">
          {columns.map((col) => (
            <span key={col.id} className="cell head" title={col.name}>
              {col.label}
            </span>
          ))}
        </span>
      </div>
      <ol className="ceremony-rows" ref={list}>
        {c.rows.map((start) => {
          const i = order.get(start.userId)!;
          const r = scene.rows[i]!;
          return <Row key={start.userId} r={r} i={i} kind={c.rankingType} last={scene.last} working={i === scene.at} />;
        })}
      </ol>
    </div>
  );
}

/** The pause on a finished row holding an award: who, and each citation. */
export function AwardCard({ c, step, rows }: { c: Ceremony; step: Extract<CeremonyStep, { kind: 'award' }>; rows: ShownRow[] }) {
  const t = useT();
  const row = rows.find((r) => r.userId === step.userId);
  const citations = step.awards.map((key) => c.awards.find((a) => a.key === key)?.citation ?? key);
  return (
    <section className="award-card" role="dialog" aria-label={t('ceremony.award')} data-user={step.userId}>
      <p className="award-name">{row?.userName}</p>
      <ul>
        {citations.map((text, i) => (
          <li key={step.awards[i]} data-award={step.awards[i]}>
            {text}
          </li>
        ))}
      </ul>
    </section>
  );
}
