import { useQueries } from '@tanstack/react-query';
import { fileUrl } from '../../api/client';
import { keys } from '../../api/keys';
import { useT } from '../../i18n/I18n';
import { CopyButton } from './CopyButton';
import { pairSamples, type FileItem, type Sample } from './samples';

/** Larger sample files are offered for download only; a page of a megabyte of digits helps nobody. */
const SHOWN_BYTES = 64 * 1024;

async function fileText(fileId: string): Promise<string> {
  const res = await fetch(fileUrl(fileId), { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.text();
}

function SampleFile({ file, title, text }: { file: FileItem; title: string; text: string | undefined }) {
  const t = useT();
  const shown = file.sizeBytes <= SHOWN_BYTES;
  return (
    <figure className="sample-file">
      <figcaption>
        <span className="sample-title">{title}</span>
        <span className="sample-actions">
          {shown && <CopyButton text={text} label={t('problem.sample.copyNamed', { what: title })} />}
          <a href={fileUrl(file.fileId)} download={file.name.split('/').pop()} aria-label={t('problem.sample.downloadNamed', { what: title })}>
            {t('problem.sample.download')}
          </a>
        </span>
      </figcaption>
      {shown ? <pre tabIndex={0}>{text ?? '…'}</pre> : <p className="muted">{t('problem.sample.tooLarge')}</p>}
    </figure>
  );
}

function SampleBlock({ sample, texts }: { sample: Sample; texts: Map<string, string> }) {
  const t = useT();
  const parts: [FileItem | undefined, string][] = [
    [sample.input, t('problem.sample.input', { name: sample.name })],
    [sample.answer, t('problem.sample.answer', { name: sample.name })],
    [sample.interaction, t('problem.sample.interaction', { name: sample.name })],
  ];
  return (
    <div className="sample">
      {parts.map(([f, title]) => f && <SampleFile key={f.fileId} file={f} title={title} text={texts.get(f.fileId)} />)}
    </div>
  );
}

/** The problem's samples, input beside expected output, each with Copy and Download. */
export function Samples({ files }: { files: FileItem[] }) {
  const t = useT();
  const samples = pairSamples(files);
  const shown = samples.flatMap((s) => [s.input, s.answer, s.interaction]).filter((f): f is FileItem => !!f && f.sizeBytes <= SHOWN_BYTES);
  // every sample's text at once, in parallel
  const results = useQueries({ queries: shown.map((f) => ({ queryKey: keys.fileText(f.sha256), queryFn: () => fileText(f.fileId), staleTime: Infinity })) });
  const texts = new Map(shown.map((f, i) => [f.fileId, results[i]?.data] as const).filter((e): e is readonly [string, string] => e[1] !== undefined));
  if (!samples.length) return null;
  return (
    <section className="samples" aria-labelledby="samples-title">
      <h2 id="samples-title">{t('problem.samples')}</h2>
      {samples.map((s) => (
        <SampleBlock key={s.name} sample={s} texts={texts} />
      ))}
    </section>
  );
}
