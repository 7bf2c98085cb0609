import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { prepareLatex, type PreparedStatement } from '../src/modules/problems/statements/latex.js';
import { resolveImage } from '../src/modules/problems/statements/images.js';

/**
 * Real statements through the LaTeX converter: NWERC's fixingfractions (whose \textsuperscript
 * ended the server at import), two more from real contests and problemtools' example, and the
 * repository's own examples (fixtures/latex-statements/README.md says where each comes from and
 * under which licence). Each converts, shows what its author wrote, and warns only about what the
 * converter cannot show.
 */

const here = dirname(fileURLToPath(import.meta.url));
const fixture = (name: string) => readFileSync(join(here, 'fixtures/latex-statements', name), 'utf8');

function convert(text: string, files: string[] = []): { prepared: PreparedStatement; html: string } {
  const prepared = prepareLatex({
    text,
    sibling: () => undefined,
    image: (ref) => resolveImage('problem_statement', ref, (p) => files.includes(p)),
  });
  return { prepared, html: prepared.render((path) => `/files/${path.slice(path.lastIndexOf('/') + 1)}`) };
}

describe('real LaTeX statements', () => {
  it('NWERC 2023 fixingfractions: the citation mark, the trademark, sections, the illustration; the PDF figures named instead', () => {
    const { prepared, html } = convert(fixture('fixingfractions.en.tex'), ['problem_statement/meme.png']);
    expect(html).toMatch(/^<h1>Fixing Fractions<\/h1><figure class="illustration"><img alt="Source: The Internet™." src="\/files\/meme.png"><figcaption>Source: The Internet™.<\/figcaption><\/figure>/);
    expect(html).toContain('<p>Maths is hard.<sup>[citation needed]</sup> But it could be easier! And the internet™ has found');
    expect(html).toContain('<h2>Input</h2><p>The input consists of:</p><ul><li>One line with four integers');
    expect(html).toContain('output “<code>possible</code>”, followed by');
    expect(html).toContain('<div class="center"><span class="missing-image">[fraction1.pdf]</span></div>');
    // the commented-out equation stays out
    expect(html).not.toContain('123}{234');
    expect(prepared.images).toEqual(['problem_statement/meme.png']);
    expect(prepared.warnings).toEqual([
      "the image fraction1.pdf is not a PNG, JPEG, GIF or SVG file of the statement's directory: its name is shown instead",
      "the image fraction2.pdf is not a PNG, JPEG, GIF or SVG file of the statement's directory: its name is shown instead",
    ]);
  });

  it('documentdimensions: BAPCtools’ afterSample and minipage shown, its \\lstdefinestyle left out, the listings it reads from files named in warnings', () => {
    const { prepared, html } = convert(fixture('documentdimensions.en.tex'), ['problem_statement/writing.png']);
    expect(html).toContain('<h1>Document Dimensions</h1><figure class="illustration"><img alt="Hermione’s text. Image by Chris Martin, Wikimedia"');
    expect(html).toContain('<a class="href" href="https://commons.wikimedia.org/wiki/File:Writing_F.svg">Wikimedia</a>');
    expect(html).toContain('the sum of the <em>height</em> and <em>width</em>');
    expect(html).toContain('<div class="afterSample"><h2>Notes</h2><p>These are visualizations of the optimal result.</p><div class="minipage">First testcase: ');
    expect(html).not.toMatch(/breaklines|typsesettingExample|problemQuote/);
    expect(prepared.warnings).toEqual([
      'the listing documentdimensions/problem_statement/sample1.txt is read from a file the statement cannot show: left out',
      'the listing documentdimensions/problem_statement/sample2.txt is read from a file the statement cannot show: left out',
    ]);
  });

  it("problemtools' oddecho: \\( \\) math, sections and the scoring table with its rules left out", () => {
    const { prepared, html } = convert(fixture('oddecho.en.tex'));
    expect(html).toContain('<h2>Input</h2>');
    expect(html).toContain('<h2>Scoring</h2>');
    expect(html).toMatch(/<table class="tabular"><tbody><tr><td>Group<\/td><td>Points<\/td><td>Constraints<\/td><\/tr><tr><td><span class="statement-math-inline">.*<\/td><td>No additional constraints<\/td><\/tr><\/tbody><\/table>/);
    expect(html).toContain('<annotation encoding="application/x-tex">1 \\le N \\le 10</annotation>');
    expect(prepared.warnings).toEqual([]);
  });

  it("the repository's example contest: every statement converts without a warning", () => {
    const root = join(here, '../../../examples/spring-contest');
    const problems = readdirSync(root);
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) {
      const { prepared, html } = convert(readFileSync(join(root, problem, 'problem_statement/problem.en.tex'), 'utf8'));
      expect({ problem, title: /^<h1>[^<]+<\/h1>/.test(html), warnings: prepared.warnings }).toEqual({ problem, title: true, warnings: [] });
    }
  });
});
