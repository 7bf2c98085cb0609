import type { Printout } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { ErrorBox } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { printoutPdfUrl } from './pdf';

type Step = { op: 'claim' } | { op: 'release' } | { op: 'resolve'; note: string };

function run(id: string, s: Step) {
  if (s.op === 'claim') return call(ops.claimPrintout, { params: { id } });
  if (s.op === 'release') return call(ops.releasePrintout, { params: { id } });
  return call(ops.resolvePrintout, { params: { id }, body: s.note.trim() ? { note: s.note.trim() } : {} });
}

/** Open the PDF, claim, hand back, or resolve with a note, as the printout's state allows. */
export function PrintoutActions({ printout: p }: { printout: Printout }) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const [note, setNote] = useState('');
  const act = useMutation({
    mutationFn: (s: Step) => run(p.id, s),
    onSuccess: () => qc.invalidateQueries({ queryKey: [keys.staffPrintouts({})[0]] }),
  });
  const open = p.state !== 'resolved';
  return (
    <div className="printout-actions">
      {!p.sourceDisposedAt && (
        <a className="button-link" href={printoutPdfUrl(p.id)} target="_blank" rel="noopener">
          {t('staff.p.openPdf')}
          <span className="visually-hidden"> {t('staff.p.newTab')}</span>
        </a>
      )}
      {p.state === 'queued' && (
        <button type="button" onClick={() => act.mutate({ op: 'claim' })} disabled={act.isPending}>
          {t('staff.p.claim')}
        </button>
      )}
      {p.state === 'claimed' && p.claimedByMe && (
        <button type="button" onClick={() => act.mutate({ op: 'release' })} disabled={act.isPending}>
          {t('staff.p.release')}
        </button>
      )}
      {open && (
        <form className="resolve-form" onSubmit={(e) => (e.preventDefault(), act.mutate({ op: 'resolve', note }))}>
          <label htmlFor={`${id}-note`}>{t('staff.p.note')}</label>
          <input id={`${id}-note`} value={note} onChange={(e) => setNote(e.target.value)} maxLength={1000} />
          <button type="submit" disabled={act.isPending}>
            {t('staff.p.resolve')}
          </button>
        </form>
      )}
      {act.isError && <ErrorBox error={act.error} />}
    </div>
  );
}
