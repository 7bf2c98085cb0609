import { ops, type Activity } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import type { Party, TestJudge } from '../harness.js';
import { legacyPackage, zipOf } from '../zips.js';

/**
 * The inputs that once held or killed the server: statements that crash or stall the
 * LaTeX converter and the largest printouts, with the few steps that hand them to a test server.
 */

/** A 10-way macro fan-out eight deep (10^8 copies once expanded), in about 540 bytes. */
export const MACRO_FAN_OUT = [
  String.raw`\problemname{Fan out}`,
  String.raw`\newcommand{\a}{xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx}`,
  ...'bcdefgh'.split('').map((m, i) => `\\newcommand{\\${m}}{${`\\${'abcdefgh'[i]}`.repeat(10)}}`),
  String.raw`\h\h\h\h\h\h\h\h\h\h`,
].join('\n');
export const NESTED_ITEMIZE = `\\problemname{Nested}\n${'\\begin{itemize}\\item '.repeat(500)}deep${'\\end{itemize}'.repeat(500)}\n`;
export const NESTED_BRACES = `\\problemname{Braces}\n${'{'.repeat(5000)}x${'}'.repeat(5000)}\n`;
export const WORST_STATEMENTS = { MACRO_FAN_OUT, NESTED_ITEMIZE, NESTED_BRACES };

/** The probe's printout: one line of 256 KiB, the worst case of the highlighter. */
export const ONE_LONG_LINE = 'x'.repeat(256 * 1024 - 1);
/** 256 KiB of ordinary C++ lines, about 70 pages: the most pages the source limit allows with real code. */
export const LONG_PROGRAM = Array.from({ length: 4200 }, (_, i) => `int v${i % 1000} = f(${i}) + g("s") * 3; // note ${i % 97}`.padEnd(61, ' '))
  .join('\n')
  .slice(0, 256 * 1024);

/** Makes a problem and a version whose package's statement is `tex`; answers the version's request. */
export async function versionWithStatement(admin: JudgeClient, tex: string, slug: string) {
  const problem = await admin.call(ops.createProblem, { body: { slug, name: 'Heavy', type: 'standard-io@1' } });
  const file = await admin.upload('package.zip', await zipOf({ ...legacyPackage(), 'problem_statement/problem.en.tex': tex }), 'application/zip');
  return admin.call(ops.createProblemVersion, { params: { problemId: problem.id }, body: { package: { fileId: file.id } } });
}

/** An activity with printouts on, a participant and a member of staff who handles them. */
export async function printoutWorld(j: TestJudge, slug: string): Promise<{ act: Activity; alice: Party; staff: Party }> {
  const admin = await j.admin();
  const act = await admin.call(ops.createActivity, { body: { slug, name: 'Printing', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', modules: { printouts: true } } });
  await admin.call(ops.createRole, { body: { name: `Printer ${slug}`, permissions: ['printout:manage', 'activity:read'] } as never });
  const party = async (name: string, role: string): Promise<Party> => {
    const u = await j.user(`${name}-${slug}`);
    await j.grant(u.id, role, act.id);
    return { u, c: await j.signIn(u, 'cookie') };
  };
  return { act, alice: await party('alice', 'participant'), staff: await party('staff', `Printer ${slug}`) };
}

export const askToPrint = (p: Party, act: Activity, fileName: string, source: string) => p.c.call(ops.requestPrintout, { params: { idOrSlug: act.slug }, body: { fileName, source } });
