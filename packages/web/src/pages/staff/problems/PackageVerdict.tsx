import type { ProblemVersion } from '@judge/contract';
import { ApiProblem } from '@judge/sdk/browser';
import { ErrorBox } from '../../../components/Status';
import type { MessageKey } from '../../../i18n/catalogue';
import { useT } from '../../../i18n/I18n';
import { PackageFacts } from './PackageFacts';

/** What each refusal of a package means, in the reader's language; the server's detail follows. */
const REFUSED: Record<string, MessageKey> = {
  'package.invalid': 'staff.problems.refused.invalid',
  'version.statements.empty': 'staff.problems.refused.noStatement',
  'version.statement.latex': 'staff.problems.refused.latex',
  'problem.slug.taken': 'staff.problems.refused.slugTaken',
  'problem.archived': 'staff.problems.refused.archived',
  payload_too_large: 'staff.problems.refused.tooLarge',
  unsupported_media_type: 'staff.problems.refused.notZip',
  checksum_mismatch: 'staff.problems.refused.checksum',
  validation_failed: 'staff.problems.refused.validation',
};

/** A refused package in words: what the refusal means, the server's own reason, and each field it names. */
export function PackageRefusal({ error }: { error: unknown }) {
  const t = useT();
  if (!(error instanceof ApiProblem)) return <ErrorBox error={error} title={t('staff.problems.refused.title')} />;
  const meaning = REFUSED[error.code];
  const fields = Object.entries(error.errors ?? {});
  return (
    <div className="error-box package-refusal" role="alert">
      <strong>{t('staff.problems.refused.title')}</strong> {meaning && t(meaning)}
      {error.detail && (
        <p className="refusal-detail" lang="en">
          {error.detail}
        </p>
      )}
      {fields.length > 0 && (
        <ul>
          {fields.map(([field, messages]) => (
            <li key={field}>
              <code>{field}</code>: {messages.join('; ')}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** An accepted package: the version it became and what the server read in it. */
export function PackageAccepted({ version, name }: { version: ProblemVersion; name: string }) {
  const t = useT();
  return (
    <div className="ok-box package-accepted" role="status">
      <strong>{t('staff.problems.accepted', { version: version.version, name })}</strong>
      <PackageFacts version={version} />
    </div>
  );
}
