// `credit topup|show|alert|ledger`: credits and their ledger.
import { MAX_CREDITS, parsePositiveInt } from '../admin.service';
import { presentCredits, presentLedger } from '../present';
import { eshopId, type CommandGroup } from './options';

export const creditCommands: CommandGroup = (program, admin, answer) => {
  const credit = program.command('credit').description('credits and their ledger');
  credit
    .command('topup')
    .description('add credits')
    .argument('<ID>', 'eshop id')
    .argument('<AMOUNT>', 'credits to add')
    .option('--reason <text>', 'shown in the ledger')
    .action(async (id: string, amount: string, o: { reason?: string }) => {
      const eshop = eshopId(id);
      const account = await admin().topUp(
        eshop,
        parsePositiveInt(amount, 'AMOUNT', MAX_CREDITS),
        o.reason ?? null,
      );
      answer({ eshop_id: eshop, ...presentCredits(account) });
    });
  credit
    .command('show')
    .description('the balance and the last 10 ledger rows')
    .argument('<ID>', 'eshop id')
    .action(async (id: string) => {
      const eshop = eshopId(id);
      const { account, ledger } = await admin().credits(eshop, 10);
      answer({ eshop_id: eshop, ...presentCredits(account), ledger: ledger.map(presentLedger) });
    });
  credit
    .command('alert')
    .description('the balance below which a charge writes a credits.low event (off: none)')
    .argument('<ID>', 'eshop id')
    .argument('<LEVEL>', 'credits, or "off"')
    .action(async (id: string, level: string) => {
      const eshop = eshopId(id);
      const threshold = level === 'off' ? null : parsePositiveInt(level, 'LEVEL', MAX_CREDITS);
      answer({ eshop_id: eshop, low_balance_threshold: await admin().setCreditAlert(eshop, threshold) });
    });
  credit
    .command('ledger')
    .description('ledger rows, newest first')
    .argument('<ID>', 'eshop id')
    .option('--limit <n>', 'rows at most (default 50, at most 10,000)')
    .action(async (id: string, o: { limit?: string }) => {
      const limit = o.limit === undefined ? 50 : Math.min(parsePositiveInt(o.limit, '--limit'), 10_000);
      answer((await admin().credits(eshopId(id), limit)).ledger.map(presentLedger));
    });
};
