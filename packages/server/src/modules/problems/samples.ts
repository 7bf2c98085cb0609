/**
 * A package's samples as files participants may read (decisions §13): every `data/sample/` file
 * ending in .in, .ans or .interaction, named `sample/<its path below data/sample/>`, read once
 * when the version is made.
 */
import { openPackageZip, readEntry } from '@judge/problem-package';

/** Larger sample files are left out (they stay in the package, which the runners judge with). */
const MAX_SAMPLE_BYTES = 8 * 1024 * 1024;
/** At most this many sample files are offered. */
const MAX_SAMPLES = 200;
const SAMPLE = /^data\/sample\/(.+\.(?:in|ans|interaction))$/;

export interface SampleFile {
  name: string;
  bytes: Buffer;
}

export async function packageSamples(path: string): Promise<SampleFile[]> {
  const pkg = await openPackageZip(path);
  try {
    const out: SampleFile[] = [];
    const entries = pkg.entries.filter((e) => !e.directory && SAMPLE.test(e.name) && e.entry.uncompressedSize <= MAX_SAMPLE_BYTES);
    entries.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
    for (const e of entries.slice(0, MAX_SAMPLES)) {
      out.push({ name: `sample/${SAMPLE.exec(e.name)![1]!}`, bytes: await readEntry(pkg, e, MAX_SAMPLE_BYTES) });
    }
    return out;
  } finally {
    pkg.close();
  }
}
