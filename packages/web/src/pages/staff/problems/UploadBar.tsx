import { useI18n } from '../../../i18n/I18n';
import { formatBytes } from '../../../i18n/bytes';
import type { UploadPhase } from './usePackageUpload';
import type { UploadProgress } from './uploadWithProgress';

/**
 * How far an upload went: a progress bar with the bytes sent in words beside it, then what the
 * server is doing with the package. Hidden before the first upload.
 */
export function UploadBar({ phase, progress }: { phase: UploadPhase; progress: UploadProgress | null }) {
  const { t, locale } = useI18n();
  if (phase === 'idle' || !progress) return null;
  const bytes = (n: number) => formatBytes(n, locale, t);
  const percent = progress.total > 0 ? Math.round((progress.sent / progress.total) * 100) : 100;
  const words =
    phase === 'uploading'
      ? t('staff.problems.upload.sending', { sent: bytes(progress.sent), total: bytes(progress.total), percent })
      : phase === 'checking'
        ? t('staff.problems.upload.checking')
        : t('staff.problems.upload.sent', { total: bytes(progress.total) });
  return (
    <div className="upload-bar">
      <progress max={progress.total || 1} value={progress.sent} aria-label={t('staff.problems.upload.progress')} data-phase={phase} />
      <span role="status" aria-live="polite">
        {words}
      </span>
    </div>
  );
}
