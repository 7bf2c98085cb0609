import type { Command } from 'commander';
import { resolve } from 'node:path';
import { human } from './archive.js';
import { backup, type BackupProgress } from './backup.js';
import { doctor } from './doctor.js';
import { migrateToPostgres, type MigrateProgress } from './migrate-to-postgres.js';
import { OpsError } from './errors.js';
import { resetPassword } from './reset-password.js';
import { RESTORE_HELP, restoreAction } from './restore-command.js';

const dataDirOption = ['--data-dir <dir>', 'data directory', process.env.JUDGE_DATA_DIR ?? './data'] as const;
/** The files directory (setting filesDir); without it, the data directory's judge.json or JUDGE_FILES_DIR says. */
const filesDirOption = ['--files-dir <dir>', 'the stored files are there, not in DATA_DIR/files (setting filesDir)'] as const;
const absolute = (dir: string | undefined) => (dir ? resolve(dir) : dir);

/** Runs an action; a refusal is one line on stderr and exit status 2, as the other commands do. */
function guarded<A extends unknown[]>(fn: (...a: A) => Promise<void>): (...a: A) => Promise<void> {
  return async (...a: A) => {
    try {
      await fn(...a);
    } catch (e) {
      // a file that cannot be read or written (the archive's folder, a password file) is the
      // operator's to fix: its message names the path, no stack needed
      if (!(e instanceof OpsError) && !(e as NodeJS.ErrnoException).syscall) throw e;
      console.error(`judge: ${(e as Error).message}`);
      process.exit(2);
    }
  };
}

/** Files and bytes so far on a terminal's one line, at most ten times a second. */
function progressLine(): { show(p: BackupProgress): void; clear(): void } {
  if (!process.stderr.isTTY) return { show: () => {}, clear: () => {} };
  let last = 0;
  return {
    show(p) {
      if (Date.now() - last < 100 && p.files < p.totalFiles) return;
      last = Date.now();
      process.stderr.write(`\rbacking up: ${p.files}/${p.totalFiles} files, ${human(p.bytes)} of ${human(p.totalBytes)}\x1b[K`);
    },
    clear: () => process.stderr.write('\r\x1b[K'),
  };
}

/** `judge migrate --to postgres://…` (migrate-to-postgres.ts). */
function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('Copy a one-box data directory into an empty PostgreSQL database, to serve it from several servers (judge serve --database)')
    .requiredOption('--to <url>', 'the PostgreSQL database to fill: postgres://user:password@host/name (it must be empty)')
    .option(...dataDirOption)
    .option('--files-dir <dir>', 'copy the stored files into this directory, the one the servers will share (their filesDir setting); without it they stay in DATA_DIR/files')
    .option('--json', 'print the summary as JSON')
    .addHelpText(
      'after',
      '\nStop the judge first: the database is read offline. Every stored file is checked against its size and SHA-256 before\nanything is written, and again once copied into --files-dir; the rows are copied in one transaction and counted again\nafterwards, so a failure leaves the target empty (docs/storage.md, "Moving to PostgreSQL" and "Files").',
    )
    .action(
      guarded(async (o: { to: string; dataDir: string; filesDir?: string; json?: boolean }) => {
        const tty = !o.json && process.stderr.isTTY;
        let last = 0;
        const show = (p: MigrateProgress): void => {
          if (!tty || (Date.now() - last < 100 && p.done < p.total)) return;
          last = Date.now();
          process.stderr.write(`\r${p.phase === 'files' ? 'checking files' : 'copying rows'}: ${p.done}/${p.total}\x1b[K`);
        };
        const s = await migrateToPostgres(resolve(o.dataDir), o.to, show, absolute(o.filesDir));
        if (tty) process.stderr.write('\r\x1b[K');
        if (o.json) console.log(JSON.stringify(s));
        else {
          console.log(`Copied ${s.rows} rows of ${s.tables.filter((t) => t.rows).length} tables from ${resolve(o.dataDir)} to ${s.target} in ${s.seconds.toFixed(1)} s; ${s.files} stored files (${human(s.fileBytes)}) checked.`);
          console.log(`Serve it with: judge serve --data-dir ${resolve(o.dataDir)} --database <the same URL>${s.filesDir ? ` --files-dir ${s.filesDir}` : ''}`);
        }
      }),
    );
}

export function registerOpsCommands(program: Command, judgeVersion: string): void {
  program
    .command('backup')
    .description('Back up a data directory into one archive, also while the judge serves (a consistent copy of the database and the files it refers to)')
    .argument('<file>', 'the archive to write (gzip-compressed when it ends in .gz or .tgz); never overwritten')
    .option(...dataDirOption)
    .option(...filesDirOption)
    .option('--json', 'print the summary as JSON')
    .addHelpText('after', '\nThe archive is created mode 0600: it holds password hashes and the local runner\'s key. It is written as FILE.partial and renamed when complete.\nOn PostgreSQL (the database setting) it holds a pg_dump of one snapshot and the stored files that snapshot refers to; pg_dump\n(postgresql-client) must be installed, and the password is passed to it in its environment, never on its command line.')
    .action(
      guarded(async (file: string, o: { dataDir: string; filesDir?: string; json?: boolean }) => {
        const line = o.json ? { show: () => {}, clear: () => {} } : progressLine();
        const s = await backup(resolve(o.dataDir), resolve(file), { judgeVersion, filesDir: absolute(o.filesDir), progress: (p) => line.show(p) });
        line.clear();
        if (o.json) console.log(JSON.stringify(s));
        else console.log(`Backed up ${resolve(o.dataDir)} to ${s.file}: database ${human(s.databaseBytes)}, ${s.storedFiles} stored files, archive ${human(s.bytes)} in ${s.seconds.toFixed(1)} s.`);
      }),
    );

  program
    .command('restore')
    .description('Make a new data directory from a backup, after checking every entry against its manifest')
    .argument('<file>', 'the backup archive')
    .option(...dataDirOption)
    .option('--database <url>', 'for the backup of a judge on PostgreSQL: the new, empty database to restore it into (or JUDGE_DATABASE)')
    .option(...filesDirOption)
    .option('--trust-commands', "restore the settings of the backup's judge.json that run programs or name files outside the data directory without asking")
    .option('--json', 'print the summary as JSON')
    .addHelpText('after', RESTORE_HELP)
    .action(guarded(restoreAction));

  program
    .command('reset-password')
    .description("Give an account a new password without the API (e.g. a lost admin password): clears its lockout and ends its sessions; works with the server running or stopped")
    .argument('<user>', 'the username')
    .option(...dataDirOption)
    .option('--password-file <file>', 'read the new password from this file (otherwise one is generated and printed once)')
    .option('--json', 'print the result as JSON')
    .action(
      guarded(async (user: string, o: { dataDir: string; passwordFile?: string; json?: boolean }) => {
        const r = await resetPassword(resolve(o.dataDir), user, o.passwordFile);
        if (o.json) console.log(JSON.stringify(r));
        else {
          if (r.password) console.log(`The new password is printed this once; keep it safe:\n\n  ${r.username} / ${r.password}\n`);
          else console.log(`${r.username} has the password from the file.`);
          console.log(`Lockout cleared; ${r.sessionsEnded} session${r.sessionsEnded === 1 ? '' : 's'} ended.`);
        }
      }),
    );

  registerMigrate(program);

  program
    .command('doctor')
    .description('Check a data directory: database integrity and foreign keys, stored files missing or orphaned, upload leftovers; exit status 1 when something is wrong')
    .option(...dataDirOption)
    .option(...filesDirOption)
    .option('--repair', 'remove what is safe to remove (orphaned files older than an hour, upload leftovers); needs the server stopped')
    .option('--json', 'print the report as JSON')
    .action(
      guarded(async (o: { dataDir: string; filesDir?: string; repair?: boolean; json?: boolean }) => {
        const r = await doctor(resolve(o.dataDir), { repair: !!o.repair, filesDir: absolute(o.filesDir) });
        if (o.json) console.log(JSON.stringify(r));
        else {
          for (const f of r.findings) console.log(`${f.repaired ? 'repaired' : 'problem'}: ${f.message}`);
          const repaired = r.findings.length - r.remaining;
          if (!r.findings.length) console.log(`${r.dataDir} is healthy: the database is intact and every stored file is in place.`);
          else console.log(`${r.findings.length} finding${r.findings.length === 1 ? '' : 's'}, ${repaired} repaired, ${r.remaining} left${r.remaining && !o.repair ? ' (--repair removes orphans and leftovers; a missing file must come from a backup)' : ''}.`);
        }
        if (r.remaining) process.exitCode = 1;
      }),
    );
}
