import { describe, expect, it } from 'vitest';
import { ops, type Activity, type ParticipantProblem, type ProblemVersion } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { refusedWith } from './expect.js';
import { activity, admin, attach, inMinutes, j, participantOf, problemOf, series, uniq, useParticipantWorld } from './support/participant.js';
import { legacyPackage, zipOf, type ZipContent } from './zips.js';

/**
 * The statements of a package (decisions §13), read by the server when a version is made: LaTeX
 * converted once to sanitized HTML with its math typeset and its images served as participant
 * files, Markdown and PDF kept, each listed with its format. Real HTTP, a real SQLite file; the
 * converter's coverage of LaTeX is in latex-statement.test.ts.
 */

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

const TEX = String.raw`\problemname{Mountain Climbing}
\illustration{0.3}{mountain}{A mountain}
Find the highest peak among $n$ peaks, where $1 \le n \le 10^5$.
$$\sum_{i=1}^{n} h_i \cdot 2$$
\section*{Input}
\begin{itemize}
\item The first line holds $n$.
\item Then $n$ heights.
\end{itemize}
\begin{tabular}{ll} peak & height \\ K2 & 8611 \end{tabular}
\section*{Output}
The height of the highest peak.
\sampletable{Sample Input}{1.in}{Sample Output}{1.ans}
`;

const HOSTILE_TEX = String.raw`\problemname{Trap}
Click \href{javascript:alert(1)}{here} or \url{javascript:alert(2)}.
<script>alert(3)</script> <img src=x onerror=alert(4)>
`;

const HOSTILE_HTML = `<html><head><title>t</title><style>body{display:none}</style><script>alert(1)</script></head>
<body><h1 onclick="alert(2)" style="position:fixed">Trap</h1><a href="javascript:alert(3)">x</a>
<iframe src="https://example.com"></iframe><img src="pic.png" onerror="alert(4)"><img src="https://tracker.example/x.png">
<form action="https://example.com"><input name="q"></form></body></html>`;

const pkgWith = (extra: Record<string, ZipContent>) => zipOf({ ...legacyPackage(), ...extra });

async function problemWith(pkg: Buffer, more: { statements?: { language?: string; fileId: string }[] } = {}): Promise<{ problemId: string; v: ProblemVersion }> {
  const problem = await admin.call(ops.createProblem, { body: { slug: uniq('stmt'), name: 'Statement', type: 'standard-io@1' } });
  const file = await admin.upload('package.zip', pkg, 'application/zip');
  const v = await admin.call(ops.createProblemVersion, { params: { problemId: problem.id }, body: { package: { fileId: file.id }, ...more } });
  return { problemId: problem.id, v };
}

/** GET /files/{id} as `c`, with the bytes. */
async function download(c: JudgeClient, fileId: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(`${j.url}/api/v1/files/${fileId}`, { headers: { authorization: `Bearer ${c.accessToken!}` } });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The problem as a participant of a running activity reads it. */
async function shown(problemId: string): Promise<{ a: Activity; pupil: JudgeClient; p: ParticipantProblem }> {
  const a = await activity();
  const s = await series(a, { startDate: inMinutes(-5) });
  await attach(s, problemId, { slug: 'climb' });
  const pupil = (await participantOf(a)).c;
  return { a, pupil, p: await problemOf(pupil, a, 'climb') };
}

const statementsOf = (p: ParticipantProblem) => p.statements.map((s) => ({ name: s.name, language: s.language, format: s.format }));
const htmlOf = async (c: JudgeClient, p: ParticipantProblem, language: string) => (await download(c, p.statements.find((s) => s.language === language)!.fileId)).bytes.toString();

describe('the statements of a package', () => {
  useParticipantWorld();

  it('converts problem.en.tex to HTML and keeps problem.sv.md, each listed with its format; the image is the participant’s to load', async () => {
    const { v, problemId } = await problemWith(
      await pkgWith({ 'problem_statement/problem.en.tex': TEX, 'problem_statement/problem.sv.md': '# Bergsklättring\n', 'problem_statement/mountain.png': PNG }),
    );
    const image = v.files.find((f) => f.name === 'statement/mountain.png')!;
    expect(image).toMatchObject({ scope: 'participant', mimeType: 'image/png', sizeBytes: PNG.length });

    const { pupil, p } = await shown(problemId);
    expect(statementsOf(p)).toEqual([
      { name: 'statement.en.html', language: 'en', format: 'html' },
      { name: 'statement.sv.md', language: 'sv', format: 'markdown' },
    ]);
    // the image is shown in the statement, not offered beside it
    expect(p.attachments.map((f) => f.name)).not.toContain('statement/mountain.png');

    const english = await download(pupil, p.statements[0]!.fileId);
    expect(english.type).toMatch(/^text\/html/);
    const html = english.bytes.toString();
    expect(html).toMatch(/<h1>Mountain Climbing<\/h1>/);
    expect(html).toMatch(/<h2>Input<\/h2>[\s\S]*<ul[^>]*>[\s\S]*<li>/);
    expect(html).toMatch(/<table[^>]*>[\s\S]*<td>\s*K2\s*<\/td>/);
    expect(html).toContain('class="katex"');
    expect(html).toContain('<math xmlns="http://www.w3.org/1998/Math/MathML"');
    expect(html).toContain('katex-display');
    expect(html).toMatch(new RegExp(`<figure class="illustration"><img alt="A mountain" src="/api/v1/files/${image.fileId}">`));
    expect(html).not.toMatch(/sampletable|Sample Input|1\.ans/);
    expect((await download(pupil, p.statements[1]!.fileId)).bytes.toString()).toBe('# Bergsklättring\n');

    const png = await download(pupil, image.fileId);
    expect({ status: png.status, type: png.type }).toEqual({ status: 200, type: 'image/png' });
    expect(png.bytes.equals(PNG)).toBe(true);
  }, 90_000); // the file's first conversion starts the app's converter thread, which under the tests loads its sources through tsx: 2 s alone, over 30 s in CI running both engines' suites on two cores

  it('a participant of another activity, or a stranger, cannot load the image', async () => {
    const { v, problemId } = await problemWith(await pkgWith({ 'problem_statement/problem.tex': String.raw`\includegraphics{mountain}`, 'problem_statement/mountain.png': PNG }));
    const image = v.files.find((f) => f.name === 'statement/mountain.png')!;
    const { pupil } = await shown(problemId);
    expect((await download(pupil, image.fileId)).status).toBe(200);
    const elsewhere = (await participantOf(await activity())).c;
    expect((await download(elsewhere, image.fileId)).status).toBe(404);
  });

  it('leaves nothing active in a hostile statement, LaTeX or HTML', async () => {
    const { problemId } = await problemWith(await pkgWith({ 'statement/problem.en.tex': HOSTILE_TEX, 'statement/problem.de.html': HOSTILE_HTML, 'statement/pic.png': PNG }));
    const { pupil, p } = await shown(problemId);
    expect(statementsOf(p)).toEqual([
      { name: 'statement.de.html', language: 'de', format: 'html' },
      { name: 'statement.en.html', language: 'en', format: 'html' },
    ]);
    for (const language of ['en', 'de']) {
      const html = await htmlOf(pupil, p, language);
      expect(html).toContain('Trap');
      // no active element; in any tag, no handler, no script URL, no style; no outside image
      expect(html).not.toMatch(/<(?:script|iframe|form|input|style|object|embed)\b/i);
      expect(html).not.toMatch(/<[^>]*\s(?:on\w+|style)=/i);
      expect(html).not.toMatch(/<[^>]*(?:href|src|action)="?\s*javascript:/i);
      expect(html).not.toContain('tracker.example');
    }
    // the package's own image stays, pointed at its file
    expect(await htmlOf(pupil, p, 'de')).toMatch(/<img src="\/api\/v1\/files\/[0-9a-f-]+">/);
    // raw HTML in LaTeX is text, shown as such
    expect(await htmlOf(pupil, p, 'en')).toContain('&#x3C;script>');
  });

  it('refuses a LaTeX statement whose structure cannot be read: 422 version.statement.latex, no version and no file stored', async () => {
    const problem = await admin.call(ops.createProblem, { body: { slug: uniq('broken'), name: 'Broken', type: 'standard-io@1' } });
    const file = await admin.upload(
      'package.zip',
      await pkgWith({
        'problem_statement/problem.de.tex': String.raw`\illustration{.5}{pic}{fine}`,
        'problem_statement/problem.en.tex': '\\begin{itemize}\\item open\n',
        'problem_statement/pic.png': PNG,
      }),
      'application/zip',
    );
    const files = (await j.count('files'));
    const pb = await refusedWith(admin.call(ops.createProblemVersion, { params: { problemId: problem.id }, body: { package: { fileId: file.id } } }), 422, 'version.statement.latex');
    expect(pb.detail).toContain('problem_statement/problem.en.tex');
    expect(await admin.call(ops.listProblemVersions, { params: { problemId: problem.id } })).toEqual([]);
    // neither the other statement, nor its image, nor the samples
    expect((await j.count('files'))).toBe(files);
  });

  it("lets the request's statements win over the package's for their language", async () => {
    const mine = await admin.upload('mine.md', '# Mine\n', 'text/markdown');
    const { v, problemId } = await problemWith(await pkgWith({ 'problem_statement/problem.en.tex': TEX, 'problem_statement/problem.sv.md': '# Svenska\n' }), {
      statements: [{ language: 'en', fileId: mine.id }],
    });
    const statements = await admin.call(ops.getProblemVersionContent, { params: { problemId, versionId: v.id } });
    expect(statements.map((s) => [s.name, s.format, s.fileId === mine.id])).toEqual([
      ['statement.en.md', 'markdown', true],
      ['statement.sv.md', 'markdown', false],
    ]);
  });

  it('a new package replaces the statements and images of the old one; removing the package removes them', async () => {
    const { problemId, v: v1 } = await problemWith(await pkgWith({ 'problem_statement/problem.en.tex': String.raw`\illustration{.5}{a}{A}`, 'problem_statement/a.png': PNG }));
    expect(v1.files.map((f) => f.name).filter((n) => n.startsWith('statement'))).toEqual(['statement.en.html', 'statement/a.png']);
    const next = await admin.upload('package.zip', await pkgWith({ 'problem_statement/problem.en.md': '# New\n' }), 'application/zip');
    const v2 = await admin.call(ops.createProblemVersion, { params: { problemId }, body: { package: { fileId: next.id } } });
    expect(v2.files.map((f) => f.name).filter((n) => n.startsWith('statement'))).toEqual(['statement.en.md']);
    const v3 = await admin.call(ops.createProblemVersion, { params: { problemId }, body: { removedFiles: ['package.zip'] } });
    expect(v3.files.map((f) => f.name).filter((n) => n.startsWith('statement') || n.startsWith('sample/'))).toEqual([]);
  });

  it('lists a PDF statement with format pdf, served as application/pdf; an uploaded PDF or LaTeX statement is named by its format', async () => {
    const { problemId } = await problemWith(await pkgWith({ 'problem_statement/problem.en.pdf': PDF }));
    const { pupil, p } = await shown(problemId);
    expect(statementsOf(p)).toEqual([{ name: 'statement.en.pdf', language: 'en', format: 'pdf' }]);
    const pdf = await download(pupil, p.statements[0]!.fileId);
    expect({ type: pdf.type, same: pdf.bytes.equals(PDF) }).toEqual({ type: 'application/pdf', same: true });

    // by its bytes, whatever type the upload claimed; and LaTeX is converted as a package's is
    const pdfUpload = await admin.upload('statement', PDF, 'application/octet-stream');
    const texUpload = await admin.upload('problem.tex', String.raw`\problemname{Sent} $x^2$`, 'application/x-tex');
    const v = await admin.call(ops.createProblemVersion, {
      params: { problemId },
      body: { statements: [{ language: 'en', fileId: pdfUpload.id }, { language: 'fr', fileId: texUpload.id }] },
    });
    const content = await admin.call(ops.getProblemVersionContent, { params: { problemId, versionId: v.id } });
    expect(content.map((s) => [s.name, s.format])).toEqual([
      ['statement.en.pdf', 'pdf'],
      ['statement.fr.html', 'html'],
    ]);
    expect(content[0]!.fileId).toBe(pdfUpload.id);
    const french = (await download(admin, content[1]!.fileId)).bytes.toString();
    expect(french).toContain('<h1>Sent</h1>');
    expect(french).toContain('class="katex"');

    const broken = await admin.upload('bad.tex', '\\end{document}', 'text/x-tex');
    await refusedWith(admin.call(ops.createProblemVersion, { params: { problemId }, body: { statements: [{ fileId: broken.id }] } }), 422, 'version.statement.latex');
    expect((await admin.call(ops.listProblemVersions, { params: { problemId } })).length).toBe(2);
  });
});
