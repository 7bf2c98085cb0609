import { describe, expect, it } from 'vitest';
import { MAX_COMPRESSION_RATIO, UPLOAD_ZIP_LIMITS, inspectPackageZip, openPackageZip, zipRefusal, wrapperPrefix } from '@judge/problem-package';
import { declareUncompressedSize, renameEntry, zipOf } from '../../runner/test/zips.js';

/** The zip safety rules: what a package zip may hold before anyone unpacks it. */

const PACKAGE = { 'problem.yaml': 'name: Sum\n', 'data/sample/1.in': '1 2\n', 'data/sample/1.ans': '3\n', 'data/secret/1.in': '5 5\n', 'data/secret/1.ans': '10\n' };

describe('openPackageZip / zipRefusal', () => {
  it('passes a plain package and names its entries relative to the root, a wrapping folder stripped', async () => {
    expect(await zipRefusal(await zipOf(PACKAGE))).toBeUndefined();
    const wrapped = await zipOf({ ...Object.fromEntries(Object.entries(PACKAGE).map(([k, v]) => [`sum/${k}`, v])), '__MACOSX/sum/._problem.yaml': 'fork' });
    const pkg = await openPackageZip(wrapped);
    try {
      expect(pkg.entries.map((e) => e.name).sort()).toEqual(Object.keys(PACKAGE).sort());
    } finally {
      pkg.close();
    }
  });

  it('refuses names that leave the package, links, special files and names given twice', async () => {
    const plain = await zipOf({ ...PACKAGE, 'zz/evil.txt': 'x', 'aa/x.txt': '1', 'bb/x.txt': '2' });
    expect(await zipRefusal(renameEntry(plain, 'zz/evil.txt', '../evil.txt'))).toMatch(/"\.\.\/evil\.txt" points outside the package/);
    expect(await zipRefusal(renameEntry(plain, 'zz/evil.txt', '/z/evil.txt'))).toMatch(/points outside the package/);
    expect(await zipRefusal(renameEntry(plain, 'zz/evil.txt', 'C:/evil.txt'))).toMatch(/points outside the package/);
    expect(await zipRefusal(renameEntry(plain, 'zz/evil.txt', 'zz\\evil.txt'))).toMatch(/points outside the package/);
    expect(await zipRefusal(renameEntry(plain, 'bb/x.txt', 'aa/x.txt'))).toBe('the package holds "aa/x.txt" twice');
    expect(await zipRefusal(await zipOf({ ...PACKAGE, 'data/l': { content: '/etc/passwd', mode: 0o120777 } }))).toBe(
      'the entry "data/l" is a symbolic link; packages must hold regular files only',
    );
    expect(await zipRefusal(await zipOf({ ...PACKAGE, 'data/f': { content: '', mode: 0o010644 } }))).toMatch(/"data\/f" is a special file/);
  });

  it('refuses too many entries, too many declared bytes and impossible compression ratios before inflating', async () => {
    const many = await zipOf(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}`, ''])));
    expect(await zipRefusal(many, { maxEntries: 10, maxExtractedBytes: 1e9 })).toBe('the package holds 20 entries; at most 10 are allowed');
    expect(await zipRefusal(declareUncompressedSize(await zipOf(PACKAGE), 0x30000000))).toBe('the package unpacks to more than 1 GiB');
    expect(await zipRefusal(await zipOf({ big: Buffer.alloc(4096) }), { maxEntries: 10, maxExtractedBytes: 1000 })).toBe('the package unpacks to more than 1000 bytes');
    // zeros deflate about 1000:1, which is legitimate; ten times that is a crafted header
    const zeros = await zipOf({ ...PACKAGE, 'data/secret/2.in': Buffer.alloc(2 * 1024 * 1024) });
    expect(await zipRefusal(zeros)).toBeUndefined();
    const bomb = declareUncompressedSize(zeros, 100 * 1024 * 1024);
    expect(await zipRefusal(bomb)).toMatch(new RegExp(`more than deflate can produce \\(a zip bomb\\)`));
    expect(MAX_COMPRESSION_RATIO).toBeGreaterThan(1032);
    expect(UPLOAD_ZIP_LIMITS).toEqual({ maxEntries: 10_000, maxExtractedBytes: 1024 ** 3 });
  });

  it('says when the bytes are not a zip', async () => {
    expect(await zipRefusal(Buffer.from('not a zip'))).toMatch(/^the package is not a zip file/);
  });

  it('strips one wrapping folder only when there is no problem.yaml at the root', () => {
    expect(wrapperPrefix(['a/problem.yaml', 'a/data/x'])).toBe('a/');
    expect(wrapperPrefix(['problem.yaml', 'a/x'])).toBe('');
    expect(wrapperPrefix(['a/x', 'b/y'])).toBe('');
  });
});

describe('inspectPackageZip', () => {
  it('summarises a package from its central directory and metadata files', async () => {
    expect(await inspectPackageZip(await zipOf({ ...PACKAGE, '.timelimit': '2.5\n' }))).toEqual({
      name: 'Sum',
      timeLimitSeconds: 2.5,
      sampleCount: 1,
      secretCount: 1,
      format: 'legacy',
    });
    const modern = await zipOf({ ...PACKAGE, 'problem.yaml': 'problem_format_version: 2023-07\nname: {de: Summe, en: Sum}\ntype: [pass-fail, interactive]\nlimits: {memory: 512}\n' });
    expect(await inspectPackageZip(modern)).toMatchObject({ name: 'Sum', memoryMiB: 512, validation: 'pass-fail interactive', format: '2023-07' });
  });

  it('refuses what the runner would refuse in problem.yaml, with the runner’s words', async () => {
    await expect(inspectPackageZip(await zipOf({ ...PACKAGE, 'problem.yaml': 'type: multi-pass\nlimits: {validation_passes: 0}\n' }))).rejects.toThrow('limits.validation_passes in problem.yaml must be a whole number of at least 2');
    await expect(inspectPackageZip(await zipOf({ ...PACKAGE, 'problem.yaml': 'problem_format_version: 2019-01\n' }))).rejects.toThrow(/is not one this runner knows/);
    await expect(inspectPackageZip(await zipOf({ 'problem.yaml': 'name: x\n' }))).rejects.toThrow('data/ is missing');
    await expect(inspectPackageZip(await zipOf({ ...PACKAGE, 'data/secret/testdata.yaml': 'grading: custom\n' }))).rejects.toThrow(
      'data/secret/testdata.yaml asks for a custom grader (grading: custom); this judge supports the default grader only',
    );
    const modern = { ...PACKAGE, 'problem.yaml': 'problem_format_version: 2023-07\ntype: scoring\n', 'data/secret/test_group.yaml': 'static_validation_score: 5\n' };
    await expect(inspectPackageZip(await zipOf(modern))).rejects.toThrow(/static validators are not supported/);
    await expect(inspectPackageZip(await zipOf({ ...PACKAGE, 'problem.yaml': 'type: multi-pass\n' }))).resolves.toMatchObject({ validation: 'multi-pass' });
  });
});
