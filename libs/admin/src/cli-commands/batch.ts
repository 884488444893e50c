// `batch list|show|pause|resume|cancel`: an eshop's bulk generations, with the APIs' rules and
// answers (libs/generation).
import { parsePositiveInt } from '../admin.service';
import { eshopId, type CommandGroup } from './options';

interface BatchOptions {
  eshop: string;
  batch?: string;
  json?: boolean;
}

const batchId = (o: BatchOptions): number => parsePositiveInt(o.batch ?? '', '--batch');

export const batchCommands: CommandGroup = (program, admin, answer) => {
  const batch = program.command('batch').description("an eshop's bulk generations (beyond the specification)");
  const command = (name: string, description: string, needsBatch: boolean) =>
    batch
      .command(name)
      .description(description)
      .requiredOption('--eshop <id>', 'eshop id (required)')
      .option('--batch <id>', needsBatch ? 'batch id (required)' : 'one batch only')
      .option('--json', 'the answer as JSON (as every command answers)');
  command('list', 'the newest 50 batches, or one with --batch', false).action(async (o: BatchOptions) =>
    answer(await admin().batches(eshopId(o.eshop), o.batch === undefined ? undefined : batchId(o))),
  );
  command('show', 'one batch: counts, credits, first errors', true).action(async (o: BatchOptions) =>
    answer(await admin().batches(eshopId(o.eshop), batchId(o))),
  );
  for (const action of ['pause', 'resume', 'cancel'] as const) {
    const what = {
      pause: 'start no more items (those under way finish)',
      resume: 'start items again',
      cancel: 'leave the queued items out and release what they held',
    }[action];
    command(action, what, true).action(async (o: BatchOptions) =>
      answer(await admin().actOnBatch(eshopId(o.eshop), batchId(o), action)),
    );
  }
};
