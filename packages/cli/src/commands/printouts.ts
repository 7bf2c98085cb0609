import { writeFileSync } from 'node:fs';
import { ops, type Printout } from '@judge/contract';
import { Option, type Command } from 'commander';
import { api } from '../client.js';
import type { JudgeClient } from '@judge/sdk';
import { activityZones } from '../activity-zones.js';
import { emit, fields, plural, table, type JsonOption } from '../output.js';
import { inZone } from '../zoned-time.js';
import { allPages, resolveActivity } from '../resolve.js';
import { sub } from './common.js';

/** Printouts in a table, each time in its activity's zone. */
async function printoutsTable(c: JudgeClient, list: Printout[]): Promise<string> {
  const zone = await activityZones(c, list.map((p) => p.activityId));
  return table(
    ['id', 'activity', 'state', 'asked', 'by', 'group', 'title', 'file', 'bytes', 'taken by', 'resolved by'],
    list.map((p) => [p.id, p.activitySlug, p.state, inZone(p.requestedAt, zone(p.activityId)), p.requestedByName, p.groupName, p.title, p.fileName, p.sizeBytes, p.claimedByName, p.resolvedByName]),
  );
}

const line = (p: Printout) => `${p.title} by ${p.requestedByName} (${p.id}) is ${p.state}${p.claimedByName && p.state === 'claimed' ? `, taken by ${p.claimedByName}` : ''}.`;

export function printoutsCommands(program: Command): void {
  const printouts = program.command('printouts').description('The printout queue: list, claim, release, resolve, show');

  sub(printouts, 'list', 'List printouts of the activities whose queue you work, oldest first')
    .option('--activity <activity>', 'only this activity (slug or id)')
    .addOption(new Option('--state <state>', 'only in this state').choices(['queued', 'claimed', 'resolved']))
    .action(async (o: JsonOption & { activity?: string; state?: 'queued' | 'claimed' | 'resolved' }) => {
      const c = await api();
      const activityId = o.activity ? (await resolveActivity(c, o.activity)).id : undefined;
      const all = await allPages((page, pageSize) =>
        c.call(ops.listPrintouts, { query: { page, pageSize, ...(activityId ? { activityId } : {}), ...(o.state ? { state: o.state } : {}) } as never }),
      );
      const text = o.json ? '' : await printoutsTable(c, all);
      emit(o, all, () => `${text}\n${plural(all.length, 'printout')}`);
    });

  sub(printouts, 'claim <id>', 'Take a queued printout').action(async (id: string, o: JsonOption) => {
    const p = await (await api()).call(ops.claimPrintout, { params: { id } });
    emit(o, p, () => line(p));
  });

  sub(printouts, 'release <id>', 'Hand a taken printout back to the queue').action(async (id: string, o: JsonOption) => {
    const p = await (await api()).call(ops.releasePrintout, { params: { id } });
    emit(o, p, () => line(p));
  });

  sub(printouts, 'resolve <id>', 'Mark a printout done (delivered, or not to be printed)')
    .option('--note <text>', 'what happened to it')
    .action(async (id: string, o: JsonOption & { note?: string }) => {
      const p = await (await api()).call(ops.resolvePrintout, { params: { id }, body: o.note ? { note: o.note } : {} });
      emit(o, p, () => line(p));
    });

  sub(printouts, 'show <id>', 'Show a printout and its source, or save its PDF with --pdf FILE')
    .option('--pdf <file>', 'save the PDF (as printed) to FILE')
    .action(async (id: string, o: JsonOption & { pdf?: string }) => {
      const c = await api();
      if (o.pdf) {
        const bytes = Buffer.from(await c.call(ops.getPrintoutPdf, { params: { id } }));
        writeFileSync(o.pdf, bytes);
        return emit(o, { saved: o.pdf, bytes: bytes.length }, () => `Saved the PDF (${bytes.length} bytes) to ${o.pdf}.`);
      }
      const d = await c.call(ops.getPrintout, { params: { id } });
      const p = d.printout;
      const zone = (await activityZones(c, [p.activityId]))(p.activityId);
      const when = (t: string | undefined) => inZone(t, zone);
      emit(o, d, () =>
        [
          fields([
            ['id', p.id],
            ['activity', p.activitySlug],
            ['state', p.state],
            ['asked', when(p.requestedAt)],
            ['by', p.requestedByName],
            ['group', p.groupName],
            ['title', p.title],
            ['problem', d.problemName],
            ['file', p.fileName],
            ['taken by', p.claimedByName],
            ['resolved by', p.resolvedByName],
            ['printed', d.printJob ? `exit ${d.printJob.exitCode ?? '(running)'} ${d.printJob.output ?? ''}`.trim() : ''],
          ]),
          d.source || (p.sourceDisposedAt ? `(source disposed ${when(p.sourceDisposedAt)})` : ''),
        ].join('\n'),
      );
    });
}
