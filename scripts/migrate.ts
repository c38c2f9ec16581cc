/**
 * The schema's migrations (migrations/NNN_name.sql, run by knex: services/shared/src/db/migrate.ts).
 *
 *   npm run migrate -- latest     apply every pending migration, in one batch (the shop does this at start-up)
 *   npm run migrate -- rollback   undo the last batch with its NNN_name.down.sql files (refused, changing
 *                                 nothing, when one of them has none)
 *   npm run migrate -- status     every migration: its batch and time, or pending
 *
 * Database: DATABASE_URL, else DATA_DIR's embedded Postgres (the running shop's server, or started here).
 */
import {
  migrateLatest,
  migrateRollback,
  migrationStatus,
  type MigrationState,
} from '../services/shared/src/db/migrate.ts';
import { runCli } from './lib/run-cli.ts';

const USAGE = 'usage: npm run migrate -- latest | rollback | status';
const COMMANDS = ['latest', 'rollback', 'status'] as const;
type Command = (typeof COMMANDS)[number];

/** The status as lines: one per migration, then a count. */
function formatStatus(states: MigrationState[]): string[] {
  const width = Math.max(...states.map((s) => s.name.length), 0);
  const lines = states.map((s) => {
    const where = s.batch
      ? `batch ${s.batch}  ${s.appliedAt?.toISOString() ?? ''}`
      : s.formerRunner
        ? 'applied by the former runner: adopted by the next latest'
        : 'pending';
    return `  ${s.name.padEnd(width)}  ${where}${s.hasDown ? '  (has down)' : ''}`;
  });
  const applied = states.filter((s) => s.batch).length;
  lines.push(`${applied} applied, ${states.length - applied} pending`);
  return lines;
}

async function runMigrateCommand(command: Command, url: string): Promise<string[]> {
  if (command === 'latest') {
    const run = await migrateLatest(url);
    const lines: string[] = [];
    if (run.adopted.length)
      lines.push(`Adopted from the former runner (recorded, not run again): ${run.adopted.join(', ')}`);
    lines.push(
      run.applied.length
        ? `Batch ${run.batch}: applied ${run.applied.join(', ')}`
        : `Nothing to apply: up to date (batch ${run.batch})`,
    );
    return lines;
  }
  if (command === 'rollback') {
    const rollback = await migrateRollback(url);
    return [
      rollback.rolledBack.length
        ? `Rolled back batch ${rollback.batch}: ${rollback.rolledBack.join(', ')}`
        : 'Nothing to roll back: no migration applied',
    ];
  }
  return formatStatus(await migrationStatus(url));
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const command = args[0] as Command;
  if (args.length !== 1 || !COMMANDS.includes(command)) {
    console.error(USAGE);
    return 2;
  }
  // With DATABASE_URL there is nothing to find: the shop's tools (which load every service) stay unloaded.
  const db = process.env.DATABASE_URL
    ? { url: process.env.DATABASE_URL, how: 'DATABASE_URL', close: async () => undefined }
    : await (await import('./lib/shop-tools.ts')).openShopDatabase();
  try {
    console.log(`Database: ${db.how}`);
    for (const line of await runMigrateCommand(command, db.url)) console.log(line);
    return 0;
  } finally {
    await db.close();
  }
}

runCli(import.meta.url, () => main(), 1);
