import type { ReactNode } from 'react';
import { Link } from 'react-router';

export type FigureTone = 'plain' | 'warn' | 'bad' | 'ok';

interface Props {
  /** The list behind the figure; without one (the reader may not open it) the figure is plain text. */
  to?: string | undefined;
  value: ReactNode;
  label: string;
  detail?: ReactNode;
  tone?: FigureTone;
  /** A stable name for tests and styles. */
  name: string;
}

/** One figure of the dashboard: a big number and what it counts, one click (or Enter) from its list. */
export function Figure({ to, value, label, detail, tone = 'plain', name }: Props) {
  const body = (
    <>
      <span className="figure-value">{value}</span>
      <span className="figure-label">{label}</span>
      {detail && <span className="figure-detail">{detail}</span>}
    </>
  );
  return (
    <li className={`figure tone-${tone}`} data-figure={name}>
      {to ? (
        <Link to={to} className="figure-box">
          {body}
        </Link>
      ) : (
        <div className="figure-box">{body}</div>
      )}
    </li>
  );
}
