// `webhook add|list|remove|enable|rotate-secret|redeliver`: an eshop's webhook endpoints.
import { EVENT_TYPES, type EventType } from '@catalogue/config';
import { parsePositiveInt } from '../admin.service';
import { eshopId, oneOf, type CommandGroup } from './options';

export const webhookCommands: CommandGroup = (program, admin, answer) => {
  const webhook = program.command('webhook').description("the eshop's webhook endpoints");
  webhook
    .command('add')
    .description('register an endpoint (its secret is shown only now)')
    .argument('<ID>', 'eshop id')
    .argument('<URL>', 'http(s) URL of a public host (or one WEBHOOK_ALLOW_PRIVATE allows)')
    .option('--events <list>', `event types, comma-separated (default: all of ${EVENT_TYPES.join(', ')})`)
    .action(async (id: string, url: string, o: { events?: string }) => {
      const types =
        o.events === undefined
          ? []
          : [...new Set(o.events.split(',').map((t) => t.trim()))].map((t) =>
              oneOf<EventType>(t, EVENT_TYPES, '--events'),
            );
      answer(await admin().addWebhook(eshopId(id), url, types));
    });
  webhook
    .command('list')
    .description('the endpoints (without secrets), with their cursors and disabled state')
    .argument('<ID>', 'eshop id')
    .action(async (id: string) => answer(await admin().listWebhooks(eshopId(id))));
  webhook
    .command('remove')
    .description('remove an endpoint with its delivery log')
    .argument('<ID>', 'eshop id')
    .argument('<WEBHOOK_ID>', 'endpoint id')
    .action(async (id: string, hook: string) =>
      answer(await admin().removeWebhook(eshopId(id), parsePositiveInt(hook, 'WEBHOOK_ID'))),
    );
  webhook
    .command('enable')
    .description('enable an endpoint disabled after failing deliveries')
    .argument('<ID>', 'eshop id')
    .argument('<WEBHOOK_ID>', 'endpoint id')
    .action(async (id: string, hook: string) =>
      answer(await admin().enableWebhook(eshopId(id), parsePositiveInt(hook, 'WEBHOOK_ID'))),
    );
  webhook
    .command('rotate-secret')
    .description('give an endpoint a new secret (printed once); the old one stays valid for 24 hours')
    .argument('<ID>', 'eshop id')
    .argument('<WEBHOOK_ID>', 'endpoint id')
    .action(async (id: string, hook: string) =>
      answer(await admin().rotateWebhookSecret(eshopId(id), parsePositiveInt(hook, 'WEBHOOK_ID'))),
    );
  webhook
    .command('redeliver')
    .description('send events again (one, or FROM_SEQ..TO_SEQ)')
    .argument('<ID>', 'eshop id')
    .argument('<WEBHOOK_ID>', 'endpoint id')
    .argument('<FROM_SEQ>', 'first event number')
    .argument('[TO_SEQ]', 'last event number (default: FROM_SEQ)')
    .action(async (id: string, hook: string, from: string, to: string | undefined) => {
      const fromSeq = parsePositiveInt(from, 'FROM_SEQ', Number.MAX_SAFE_INTEGER);
      const toSeq = to === undefined ? fromSeq : parsePositiveInt(to, 'TO_SEQ', Number.MAX_SAFE_INTEGER);
      answer(
        await admin().redeliverWebhook(eshopId(id), parsePositiveInt(hook, 'WEBHOOK_ID'), fromSeq, toSeq),
      );
    });
};
