import type { CreatedEnrolmentCode, EnrolmentCode } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { ErrorBox, Loading } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { Time } from '../../../i18n/time';
import { JudgectlHint } from '../JudgectlHint';
import { CopyCommand } from './CopyCommand';
import { useCodeAction, useEnrolmentCodes } from './queries';
import { parseTags } from './TagEditor';

const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

const EXPIRES = { '1h': 3600, '1d': 86_400, '7d': 7 * 86_400 } as const;
type Expiry = keyof typeof EXPIRES;

/**
 * The commands that make a lab machine a runner with a code (docs/runners-and-sandbox.md): the
 * same two lines `judgectl runners add` prints, naming this server as the browser reaches it.
 */
export function labCommand(code: string, server = window.location.origin): string {
  return `judge-runner register --server ${server} --code ${code}\njudge-runner start`;
}

function MakeCode({ onMade }: { onMade(c: CreatedEnrolmentCode): void }) {
  const t = useT();
  const id = useId();
  const [name, setName] = useState('');
  const [tags, setTags] = useState('');
  const [expires, setExpires] = useState<Expiry>('1h');
  const [uses, setUses] = useState(1);
  const make = useCodeAction(() =>
    call(ops.createRunnerEnrolmentCode, {
      body: { expiresInSeconds: EXPIRES[expires], uses, ...(name.trim() ? { name: name.trim() } : {}), ...(tags.trim() ? { tags: parseTags(tags) } : {}) },
    }),
  );
  return (
    <form className="staff-filters code-form" onSubmit={(e) => (e.preventDefault(), make.mutate(undefined, { onSuccess: onMade }))}>
      <label>
        {t('staff.codes.name')}
        <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
      </label>
      <label>
        {t('staff.codes.tags')}
        <input value={tags} onChange={(e) => setTags(e.target.value)} placeholder="lab, cpp" />
      </label>
      <label>
        {t('staff.codes.expires')}
        <select value={expires} onChange={(e) => setExpires(e.target.value as Expiry)}>
          {(Object.keys(EXPIRES) as Expiry[]).map((k) => (
            <option key={k} value={k}>
              {t(`staff.codes.expires.${k}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('staff.codes.uses')}
        <input type="number" min={1} max={1000} value={uses} onChange={(e) => setUses(Math.max(1, Math.min(1000, Number(e.target.value) || 1)))} />
      </label>
      <button type="submit" disabled={make.isPending}>
        {t('staff.codes.make')}
      </button>
      {make.isError && <ErrorBox error={make.error} />}
    </form>
  );
}

function CodeItem({ code: c }: { code: EnrolmentCode }) {
  const t = useT();
  const withdraw = useCodeAction(() => call(ops.revokeRunnerEnrolmentCode, { params: { id: c.id } }));
  return (
    <li data-code={c.id}>
      <code>{c.id.slice(0, 8)}</code> · {t('staff.codes.used', { used: c.used, uses: c.uses })} · {t('staff.codes.until')} <Time iso={c.expiresAt} timeZone={localZone} />
      {c.name && <> · {t('staff.codes.namesRunner', { name: c.name })}</>}
      {c.tags.length > 0 && <> · {c.tags.join(', ')}</>}
      {c.createdByName && <> · {t('staff.codes.by', { who: c.createdByName })}</>}{' '}
      <button type="button" className="danger" onClick={() => withdraw.mutate(undefined)} disabled={withdraw.isPending} aria-label={t('staff.codes.withdrawLabel', { id: c.id.slice(0, 8) })}>
        {t('staff.codes.withdraw')}
      </button>
      {withdraw.isError && <ErrorBox error={withdraw.error} />}
    </li>
  );
}

/** Make an enrolment code and copy the lab command; list and withdraw the codes still valid. */
export function EnrolmentCodes() {
  const t = useT();
  const codes = useEnrolmentCodes(true);
  const [made, setMade] = useState<CreatedEnrolmentCode | null>(null);
  return (
    <section className="enrolment" aria-labelledby="enrolment-title">
      <h2 id="enrolment-title">{t('staff.codes.title')}</h2>
      <p className="muted">{t('staff.codes.intro')}</p>
      <MakeCode onMade={setMade} />
      {made && (
        <div className="ok-box made-code">
          <p>{t('staff.codes.made')}</p>
          <CopyCommand text={labCommand(made.code)} label={t('staff.codes.command')} />
        </div>
      )}
      <JudgectlHint command="judgectl runners add --name lab-07 --tags lab --expires 1h" />
      <h3>{t('staff.codes.list')}</h3>
      {codes.isPending && <Loading />}
      {codes.isError && <ErrorBox error={codes.error} />}
      {codes.data && codes.data.items.length === 0 && <p className="muted">{t('staff.codes.none')}</p>}
      {codes.data && codes.data.items.length > 0 && (
        <ul className="code-list">
          {codes.data.items.map((c) => (
            <CodeItem key={c.id} code={c} />
          ))}
        </ul>
      )}
      <JudgectlHint command="judgectl runners codes revoke ID" />
    </section>
  );
}
