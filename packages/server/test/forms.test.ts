import { FileUploadForm, SubmitFormParts, type FilePart } from '@judge/contract';
import { describe, expect, it } from 'vitest';

/**
 * The multipart forms of the contract, as the server's API layer applies them: each refusal names
 * the part at fault, and a rule with its own catalogued code carries it in its issue's params.
 */

const SHA = 'a'.repeat(64);
const part = (field: string, fileName = 'main.py'): FilePart => ({ field, fileName, tempPath: `/tmp/${field}`, mimeType: 'text/x-python' });

/** What the API layer answers: the first coded rule's code, else validation_failed; and the parts at fault. */
function refusal(schema: typeof FileUploadForm | typeof SubmitFormParts, form: unknown): { code: string; fields: string[] } | null {
  const r = schema.safeParse(form);
  if (r.success) return null;
  const coded = r.error.issues.find((i) => typeof (i as { params?: { code?: string } }).params?.code === 'string') as { params: { code: string } } | undefined;
  return { code: coded?.params.code ?? 'validation_failed', fields: [...new Set(r.error.issues.map((i) => i.path.join('.')))] };
}

describe('the file upload form', () => {
  it('takes the part named file and the declared sha256, ignoring other parts', () => {
    const form = FileUploadForm.parse({ files: [part('other'), part('file', 'a.zip')], sha256: SHA, note: 'x' });
    expect(form).toEqual({ file: part('file', 'a.zip'), sha256: SHA });
  });

  it.each([
    ['no file part', { files: [], sha256: SHA }, { code: 'file.required', fields: ['file'] }],
    ['only another file part', { files: [part('other')], sha256: SHA }, { code: 'file.required', fields: ['file'] }],
    ['no sha256', { files: [part('file')] }, { code: 'validation_failed', fields: ['sha256'] }],
    ['a sha256 of 63 digits', { files: [part('file')], sha256: SHA.slice(1) }, { code: 'validation_failed', fields: ['sha256'] }],
    ['a missing file before a bad sha256', { files: [], sha256: 'xyz' }, { code: 'file.required', fields: ['file'] }],
  ])('refuses %s', (_what, form, expected) => {
    expect(refusal(FileUploadForm, form)).toEqual(expected);
  });
});

describe('the submission form', () => {
  it('takes a file part, falling back to `source` for a file with no name', () => {
    expect(SubmitFormParts.parse({ files: [part('file', '')], sha256: SHA })).toMatchObject({ fileName: 'source', file: { tempPath: '/tmp/file' } });
  });

  it('takes pasted code with its fileName, props as an object and the device', () => {
    const form = SubmitFormParts.parse({ files: [], code: 'print(1)', fileName: 'a.py', sha256: SHA, props: '{"language":"python3"}', deviceId: 'lab-7' });
    expect(form).toEqual({ file: undefined, code: 'print(1)', fileName: 'a.py', props: { language: 'python3' }, sha256: SHA, deviceId: 'lab-7' });
  });

  it.each([
    ['two file parts', { files: [part('file'), part('other')], sha256: SHA }, 'file.tooMany', 'file'],
    ['a file and code', { files: [part('file')], code: 'x', sha256: SHA }, 'validation_failed', 'code'],
    ['neither file nor code', { files: [], sha256: SHA }, 'submission.empty', 'file'],
    ['code without a fileName', { files: [], code: 'x', sha256: SHA }, 'submission.fileName.missing', 'fileName'],
    ['a fileName with a slash', { files: [], code: 'x', fileName: '../a.c', sha256: SHA }, 'validation_failed', 'fileName'],
    ['a malformed sha256', { files: [], code: 'x', fileName: 'a.c', sha256: 'xyz' }, 'validation_failed', 'sha256'],
    ['props that are not an object', { files: [], code: 'x', fileName: 'a.c', sha256: SHA, props: '[1]' }, 'validation_failed', 'props'],
    ['props that are not JSON', { files: [], code: 'x', fileName: 'a.c', sha256: SHA, props: 'not json' }, 'validation_failed', 'props'],
    ['an empty device id', { files: [], code: 'x', fileName: 'a.c', sha256: SHA, deviceId: '' }, 'validation_failed', 'deviceId'],
    // the order clients learn of refusals in: the file parts come before the checksum
    ['neither file nor code nor sha256', { files: [] }, 'submission.empty', 'file'],
  ])('refuses %s, naming one part', (_what, form, code, field) => {
    expect(refusal(SubmitFormParts, form)).toEqual({ code, fields: [field] });
  });
});
