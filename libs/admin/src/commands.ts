import { Command, CommanderError } from 'commander';
import { CONTENT_LANGUAGES } from '@catalogue/config';
import {
  CONTENT_FALLBACKS,
  EVENT_TYPES,
  type ContentFallback,
  type EntityStatus,
  type EntityType,
  type EshopInput,
  type EventType,
  type TokenKind,
} from '@catalogue/db';
import {
  AdminError,
  MAX_CREDITS,
  parseDay,
  parseLanguages,
  parseOrigin,
  parsePositiveInt,
  type AdminService,
} from './admin.service';
import { presentCredits, presentDetails, presentEshop, presentLedger, presentToken } from './present';

export const USAGE = `Usage: npm run --silent admin -- <command>

  eshop create --name NAME [--languages default,cs,en] [--origin URL]... [--credits N]
               [--site-link] [--rich-snippet] [--review-required] [--licence-until YYYY-MM-DD]
  eshop show ID
  eshop list
  eshop set ID [--name NAME] [--languages LIST] [--site-link on|off] [--rich-snippet on|off]
               [--review-required on|off] [--licence-until YYYY-MM-DD|none]
               [--rate-limit REQUESTS_PER_MINUTE|default] [--revisions-keep COUNT|default]
               [--content-fallback fallback|omit] [--default-language CODE|none]
  token create ID --kind api|white-label
  token revoke ID TOKEN_PREFIX
  origin add ID URL
  origin remove ID URL
  credit topup ID AMOUNT [--reason TEXT]
  credit show ID
  credit ledger ID [--limit N]
  item status ID product|category|brand|blog EXTERNAL_ID draft|generate|review|ready
  webhook add ID URL [--events item.created,item.deleted,...]
  webhook list ID
  webhook remove ID WEBHOOK_ID
  webhook enable ID WEBHOOK_ID
  webhook rotate-secret ID WEBHOOK_ID
  webhook redeliver ID WEBHOOK_ID FROM_SEQ [TO_SEQ]
  auth-cache flush

Prints JSON on stdout; errors go to stderr with a non-zero exit code.`;

function onOff(value: string | undefined, flag: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new AdminError(`--${flag} takes on or off (got "${value}")`);
}

/** `fallback` or `omit` (what a page does with a text its language lacks). */
function contentFallback(value: string): ContentFallback {
  if (!(CONTENT_FALLBACKS as readonly string[]).includes(value)) {
    throw new AdminError(`--content-fallback takes ${CONTENT_FALLBACKS.join(' or ')} (got "${value}")`);
  }
  return value as ContentFallback;
}

/** The language the eshop's `default` texts are written in, or `none` (not said: marked `und`). */
function defaultLanguage(value: string): EshopInput['defaultLanguage'] {
  if (value === 'none') return null;
  const codes = CONTENT_LANGUAGES.filter((l) => l !== 'default');
  if (!(codes as readonly string[]).includes(value)) {
    throw new AdminError(`--default-language takes one of ${codes.join(', ')} or none (got "${value}")`);
  }
  return value as EshopInput['defaultLanguage'];
}

function eshopName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (!name) throw new AdminError('--name is required and must not be empty');
  if (name.length > 200) throw new AdminError('--name must be at most 200 characters');
  return name;
}

/** The migration's check constraint allows up to this many requests per minute. */
const MAX_RATE_LIMIT = 1_000_000;
const MAX_REVISIONS_KEEP = 100_000;

const eshopId = (value: string | undefined) => parsePositiveInt(value ?? '', 'ID');

const ITEM_TYPES: readonly EntityType[] = ['product', 'category', 'brand', 'blog'];
const ITEM_STATUSES: readonly EntityStatus[] = ['draft', 'generate', 'review', 'ready'];

function oneOf<T extends string>(value: string, allowed: readonly T[], what: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new AdminError(`${what} must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

/** `--origin` may be given more than once. */
const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** What a command's action answers: printed as JSON on stdout. */
type Answer = (result: unknown) => void;

/**
 * The commands, on commander: each has its own `--help` (usage, arguments, options), unknown
 * options and missing or excess arguments are refused before anything runs, and the action
 * hands its result to `answer`.
 */
function adminProgram(admin: () => AdminService, answer: Answer): Command {
  const program = new Command('admin').description('Operate eshops, tokens, origins, credits and items.');

  const eshop = program.command('eshop').description('eshops and their settings');
  eshop
    .command('create')
    .description('create an eshop with an API token and a white-label token (shown only now)')
    .option('--name <name>', 'the eshop name (required)')
    .option('--languages <list>', 'active languages, comma-separated', 'default')
    .option('--origin <url>', 'an allowed white-label origin (repeatable)', collect, [])
    .option('--credits <n>', 'initial credits')
    .option('--site-link', 'enable site links')
    .option('--rich-snippet', 'enable rich snippets')
    .option('--review-required', 'generated content waits for review')
    .option('--licence-until <YYYY-MM-DD>', 'white-label licence valid until this day')
    .action(async (o: Record<string, string | boolean | string[] | undefined>) => {
      const created = await admin().createEshop({
        name: eshopName(o.name),
        languages: parseLanguages(o.languages as string),
        origins: (o.origin as string[]).map(parseOrigin),
        credits:
          o.credits === undefined ? 0 : parsePositiveInt(o.credits as string, '--credits', MAX_CREDITS),
        enableSiteLink: o.siteLink === true,
        enableRichSnippet: o.richSnippet === true,
        reviewRequired: o.reviewRequired === true,
        licenceValidUntil: o.licenceUntil === undefined ? null : parseDay(o.licenceUntil as string),
      });
      answer({
        id: created.eshop.id,
        api_token: created.apiToken,
        white_label_token: created.whiteLabelToken,
      });
    });
  eshop
    .command('show')
    .description('an eshop with its settings, origins, tokens and credits')
    .argument('<ID>', 'eshop id')
    .action(async (id: string) => answer(presentDetails(await admin().showEshop(eshopId(id)))));
  eshop
    .command('list')
    .description('every eshop')
    .action(async () => answer((await admin().listEshops()).map(presentEshop)));
  eshop
    .command('set')
    .description('change settings of an eshop (at least one option)')
    .argument('<ID>', 'eshop id')
    .option('--name <name>', 'the eshop name')
    .option('--languages <list>', 'active languages, comma-separated')
    .option('--site-link <on|off>', 'site links')
    .option('--rich-snippet <on|off>', 'rich snippets')
    .option('--review-required <on|off>', 'generated content waits for review')
    .option('--licence-until <YYYY-MM-DD|none>', 'white-label licence valid until this day')
    .option('--rate-limit <requests-per-minute|default>', "the eshop's read budget per token")
    .option('--content-fallback <fallback|omit>', 'what a page does with a text its language lacks')
    .option('--default-language <code|none>', 'the language the default texts are written in')
    .option('--revisions-keep <count|default>', 'content revisions kept per entity')
    .action(async (id: string, o: Record<string, string | undefined>) => {
      const patch: Partial<EshopInput> = {
        name: o.name === undefined ? undefined : eshopName(o.name),
        languages: o.languages === undefined ? undefined : parseLanguages(o.languages),
        enableSiteLink: onOff(o.siteLink, 'site-link'),
        enableRichSnippet: onOff(o.richSnippet, 'rich-snippet'),
        reviewRequired: onOff(o.reviewRequired, 'review-required'),
      };
      if (o.licenceUntil !== undefined)
        patch.licenceValidUntil = o.licenceUntil === 'none' ? null : parseDay(o.licenceUntil);
      if (o.rateLimit !== undefined) {
        patch.rateLimitPerMinute =
          o.rateLimit === 'default' ? null : parsePositiveInt(o.rateLimit, '--rate-limit', MAX_RATE_LIMIT);
      }
      if (o.contentFallback !== undefined) patch.contentFallback = contentFallback(o.contentFallback);
      if (o.defaultLanguage !== undefined) patch.defaultLanguage = defaultLanguage(o.defaultLanguage);
      const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      const keep =
        o.revisionsKeep === undefined
          ? undefined
          : o.revisionsKeep === 'default'
            ? null
            : parsePositiveInt(o.revisionsKeep, '--revisions-keep', MAX_REVISIONS_KEEP);
      if (Object.keys(changes).length === 0 && keep === undefined)
        throw new AdminError('nothing to change: give at least one option');
      let details =
        Object.keys(changes).length > 0 ? await admin().updateEshop(eshopId(id), changes) : undefined;
      if (keep !== undefined) details = await admin().setRevisionsKeep(eshopId(id), keep);
      answer(presentDetails(details!));
    });

  const token = program.command('token').description('API and white-label tokens');
  token
    .command('create')
    .description('a new token of an eshop (shown only now)')
    .argument('<ID>', 'eshop id')
    .option('--kind <api|white-label>', 'the kind of token')
    .action(async (id: string, o: { kind?: string }) => {
      if (o.kind !== 'api' && o.kind !== 'white-label')
        throw new AdminError('--kind must be api or white-label');
      const eshop = eshopId(id);
      const created = await admin().createToken(eshop, o.kind as TokenKind);
      answer({ eshop_id: eshop, token: created.token, ...presentToken(created.info) });
    });
  token
    .command('revoke')
    .description('revoke a token by the prefix `eshop show` lists')
    .argument('<ID>', 'eshop id')
    .argument('<TOKEN_PREFIX>', 'the token prefix')
    .action(async (id: string, prefix: string) => {
      const eshop = eshopId(id);
      answer({ eshop_id: eshop, ...presentToken(await admin().revokeToken(eshop, prefix)) });
    });

  const origin = program.command('origin').description('allowed white-label origins');
  for (const [name, description] of [
    ['add', 'allow an origin'],
    ['remove', 'stop allowing an origin'],
  ] as const) {
    origin
      .command(name)
      .description(description)
      .argument('<ID>', 'eshop id')
      .argument('<URL>', 'scheme://host[:port]')
      .action(async (id: string, url: string) => {
        const eshop = eshopId(id);
        const service = admin();
        const origins = await (name === 'add' ? service.addOrigin : service.removeOrigin).call(
          service,
          eshop,
          parseOrigin(url),
        );
        answer({ eshop_id: eshop, origins });
      });
  }

  program
    .command('auth-cache')
    .description("the API processes' auth caches")
    .command('flush')
    .description("empty every API replica's auth cache now (after changing tokens, eshops or origins by SQL)")
    .action(async () => {
      await admin().flushAuthCaches();
      answer({ flushed: true });
    });

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

  program
    .command('item')
    .description('catalogue items')
    .command('status')
    .description("set a catalogue item's content status")
    .argument('<ID>', 'eshop id')
    .argument('<TYPE>', ITEM_TYPES.join('|'))
    .argument('<EXTERNAL_ID>', "the item's id")
    .argument('<STATUS>', ITEM_STATUSES.join('|'))
    .action(async (id: string, type: string, externalId: string, status: string) =>
      answer(
        await admin().setItemStatus(
          eshopId(id),
          oneOf(type, ITEM_TYPES, 'TYPE'),
          externalId,
          oneOf(status, ITEM_STATUSES, 'STATUS'),
        ),
      ),
    );

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
  return program;
}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** `group action` of every command, for the unknown-command answer with the whole usage. */
function commandNames(program: Command): Set<string> {
  return new Set(
    program.commands.flatMap((group) => group.commands.map((c) => `${group.name()} ${c.name()}`)),
  );
}

/** Runs one admin command; returns the process exit code (0 ok, 1 failed, 2 usage). */
export async function runCli(argv: string[], admin: () => AdminService, io: CliIo): Promise<number> {
  const [group, action] = argv;
  if (!group || group === 'help' || group === '--help' || group === '-h') {
    io.out(`${USAGE}\n`);
    return group ? 0 : 2;
  }
  let result: unknown;
  const program = adminProgram(admin, (value) => (result = value));
  if (!commandNames(program).has(`${group} ${action ?? ''}`)) {
    io.err(`error: unknown command "${[group, action].filter(Boolean).join(' ')}"\n\n${USAGE}\n`);
    return 2;
  }
  program.exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err });
  for (const command of program.commands.flatMap((g) => [g, ...g.commands])) {
    command.exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err });
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    // Commander has printed its message (or the help) already.
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 1;
    if (err instanceof AdminError) {
      io.err(`error: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  io.out(`${JSON.stringify(result, null, 2)}\n`);
  return 0;
}
