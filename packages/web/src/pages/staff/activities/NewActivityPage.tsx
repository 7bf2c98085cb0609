import { useSearchParams } from 'react-router';
import { useStaffAccess } from '../../../app/permissions';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { JudgectlHint } from '../JudgectlHint';
import { DuplicateForm } from './DuplicateForm';
import { ImportForm } from './ImportForm';
import { ScratchForm } from './ScratchForm';
import '../staff.css';
import './activities.css';

const MODES = ['scratch', 'duplicate', 'import'] as const;
type Mode = (typeof MODES)[number];

const HINTS: Record<Mode, string> = {
  scratch: 'judgectl activities create SLUG --name … --start … --end …',
  duplicate: 'judgectl activities duplicate SOURCE SLUG --start …',
  import: 'judgectl contest import DIR --slug SLUG --start … --duration 300',
};

/** /staff/new: a contest or course from scratch, as a copy of another with its dates shifted, or from a zip of problem packages. */
export default function NewActivityPage() {
  const t = useT();
  const staff = useStaffAccess();
  const [params, setParams] = useSearchParams();
  const asked = params.get('mode');
  const mode: Mode = MODES.includes(asked as Mode) ? (asked as Mode) : 'scratch';
  usePageTitle(t('staff.activities.new.title'));
  if (!staff.creates) {
    return (
      <section>
        <h1 className="page-title">{t('staff.activities.new.title')}</h1>
        <p role="alert">{t('staff.activities.new.mayNot')}</p>
      </section>
    );
  }
  const pick = (m: Mode) => setParams((p) => ((p.set('mode', m), p)), { replace: true });
  return (
    <section className="staff-activities">
      <h1 className="page-title">{t('staff.activities.new.title')}</h1>
      <fieldset className="mode-switch">
        <legend>{t('staff.activities.new.how')}</legend>
        {MODES.map((m) => (
          <label key={m} className="check">
            <input type="radio" name="mode" value={m} checked={mode === m} onChange={() => pick(m)} /> {t(`staff.activities.new.mode.${m}`)}
          </label>
        ))}
      </fieldset>
      <p className="muted">{t(`staff.activities.new.mode.${mode}.hint`)}</p>
      {mode === 'scratch' && <ScratchForm />}
      {mode === 'duplicate' && <DuplicateForm from={params.get('from')} />}
      {mode === 'import' && <ImportForm />}
      <JudgectlHint command={HINTS[mode]} />
    </section>
  );
}
