import { parseArgs, type ParseArgsConfig } from 'node:util';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;
import type { EntityStatus, EntityType, EshopInput, TokenKind } from '@catalogue/db';
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
               [--rate-limit REQUESTS_PER_MINUTE|default]
  token create ID --kind api|white-label
  token revoke ID TOKEN_PREFIX
  origin add ID URL
  origin remove ID URL
  credit topup ID AMOUNT [--reason TEXT]
  credit show ID
  credit ledger ID [--limit N]
  item status ID product|category|brand|blog EXTERNAL_ID draft|generate|review|ready

Prints JSON on stdout; errors go to stderr with a non-zero exit code.`;

type Handler = (args: string[], admin: AdminService) => Promise<unknown>;

function parse(args: string[], options: ParseArgsOptionsConfig, positionals: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new AdminError((err as Error).message);
  }
  if (parsed.positionals.length !== positionals.length) {
    throw new AdminError(
      `expected ${positionals.length ? positionals.join(' ') : 'no arguments'} (got "${parsed.positionals.join(' ')}")`,
    );
  }
  return {
    values: parsed.values as Record<string, string | boolean | string[] | undefined>,
    positionals: parsed.positionals,
  };
}

function onOff(value: string | undefined, flag: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new AdminError(`--${flag} takes on or off (got "${value}")`);
}

function eshopName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (!name) throw new AdminError('--name is required and must not be empty');
  if (name.length > 200) throw new AdminError('--name must be at most 200 characters');
  return name;
}

/** The migration's check constraint allows up to this many requests per minute. */
const MAX_RATE_LIMIT = 1_000_000;

const eshopId = (value: string | undefined) => parsePositiveInt(value ?? '', 'ID');

const commands: Record<string, Handler> = {
  async 'eshop create'(args, admin) {
    const { values } = parse(
      args,
      {
        name: { type: 'string' },
        languages: { type: 'string' },
        origin: { type: 'string', multiple: true },
        credits: { type: 'string' },
        'site-link': { type: 'boolean' },
        'rich-snippet': { type: 'boolean' },
        'review-required': { type: 'boolean' },
        'licence-until': { type: 'string' },
      },
      [],
    );
    const created = await admin.createEshop({
      name: eshopName(values.name),
      languages: parseLanguages((values.languages as string | undefined) ?? 'default'),
      origins: ((values.origin as string[] | undefined) ?? []).map(parseOrigin),
      credits:
        values.credits === undefined
          ? 0
          : parsePositiveInt(values.credits as string, '--credits', MAX_CREDITS),
      enableSiteLink: values['site-link'] === true,
      enableRichSnippet: values['rich-snippet'] === true,
      reviewRequired: values['review-required'] === true,
      licenceValidUntil:
        values['licence-until'] === undefined ? null : parseDay(values['licence-until'] as string),
    });
    return { id: created.eshop.id, api_token: created.apiToken, white_label_token: created.whiteLabelToken };
  },

  async 'eshop show'(args, admin) {
    const { positionals } = parse(args, {}, ['ID']);
    return presentDetails(await admin.showEshop(eshopId(positionals[0])));
  },

  async 'eshop list'(args, admin) {
    parse(args, {}, []);
    return (await admin.listEshops()).map(presentEshop);
  },

  async 'eshop set'(args, admin) {
    const { values, positionals } = parse(
      args,
      {
        name: { type: 'string' },
        languages: { type: 'string' },
        'site-link': { type: 'string' },
        'rich-snippet': { type: 'string' },
        'review-required': { type: 'string' },
        'licence-until': { type: 'string' },
        'rate-limit': { type: 'string' },
      },
      ['ID'],
    );
    const patch: Partial<EshopInput> = {
      name: values.name === undefined ? undefined : eshopName(values.name),
      languages: values.languages === undefined ? undefined : parseLanguages(values.languages as string),
      enableSiteLink: onOff(values['site-link'] as string | undefined, 'site-link'),
      enableRichSnippet: onOff(values['rich-snippet'] as string | undefined, 'rich-snippet'),
      reviewRequired: onOff(values['review-required'] as string | undefined, 'review-required'),
    };
    const licence = values['licence-until'] as string | undefined;
    if (licence !== undefined) patch.licenceValidUntil = licence === 'none' ? null : parseDay(licence);
    const rateLimit = values['rate-limit'] as string | undefined;
    if (rateLimit !== undefined) {
      patch.rateLimitPerMinute =
        rateLimit === 'default' ? null : parsePositiveInt(rateLimit, '--rate-limit', MAX_RATE_LIMIT);
    }
    const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    if (Object.keys(changes).length === 0)
      throw new AdminError('nothing to change: give at least one option');
    return presentDetails(await admin.updateEshop(eshopId(positionals[0]), changes));
  },

  async 'token create'(args, admin) {
    const { values, positionals } = parse(args, { kind: { type: 'string' } }, ['ID']);
    const kind = values.kind as string | undefined;
    if (kind !== 'api' && kind !== 'white-label') throw new AdminError('--kind must be api or white-label');
    const id = eshopId(positionals[0]);
    const created = await admin.createToken(id, kind as TokenKind);
    return { eshop_id: id, token: created.token, ...presentToken(created.info) };
  },

  async 'token revoke'(args, admin) {
    const { positionals } = parse(args, {}, ['ID', 'TOKEN_PREFIX']);
    const id = eshopId(positionals[0]);
    return { eshop_id: id, ...presentToken(await admin.revokeToken(id, positionals[1]!)) };
  },

  async 'origin add'(args, admin) {
    const { positionals } = parse(args, {}, ['ID', 'URL']);
    const id = eshopId(positionals[0]);
    return { eshop_id: id, origins: await admin.addOrigin(id, parseOrigin(positionals[1]!)) };
  },

  async 'origin remove'(args, admin) {
    const { positionals } = parse(args, {}, ['ID', 'URL']);
    const id = eshopId(positionals[0]);
    return { eshop_id: id, origins: await admin.removeOrigin(id, parseOrigin(positionals[1]!)) };
  },

  async 'credit topup'(args, admin) {
    const { values, positionals } = parse(args, { reason: { type: 'string' } }, ['ID', 'AMOUNT']);
    const id = eshopId(positionals[0]);
    const amount = parsePositiveInt(positionals[1]!, 'AMOUNT', MAX_CREDITS);
    const account = await admin.topUp(id, amount, (values.reason as string | undefined) ?? null);
    return { eshop_id: id, ...presentCredits(account) };
  },

  async 'credit show'(args, admin) {
    const { positionals } = parse(args, {}, ['ID']);
    const id = eshopId(positionals[0]);
    const { account, ledger } = await admin.credits(id, 10);
    return { eshop_id: id, ...presentCredits(account), ledger: ledger.map(presentLedger) };
  },

  async 'credit ledger'(args, admin) {
    const { values, positionals } = parse(args, { limit: { type: 'string' } }, ['ID']);
    const id = eshopId(positionals[0]);
    const limit =
      values.limit === undefined ? 50 : Math.min(parsePositiveInt(values.limit as string, '--limit'), 10_000);
    return (await admin.credits(id, limit)).ledger.map(presentLedger);
  },
};

const ITEM_TYPES: readonly EntityType[] = ['product', 'category', 'brand', 'blog'];
const ITEM_STATUSES: readonly EntityStatus[] = ['draft', 'generate', 'review', 'ready'];

function oneOf<T extends string>(value: string, allowed: readonly T[], what: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new AdminError(`${what} must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

commands['item status'] = async (args, admin) => {
  const { positionals } = parse(args, {}, ['ID', 'TYPE', 'EXTERNAL_ID', 'STATUS']);
  return admin.setItemStatus(
    eshopId(positionals[0]),
    oneOf(positionals[1]!, ITEM_TYPES, 'TYPE'),
    positionals[2]!,
    oneOf(positionals[3]!, ITEM_STATUSES, 'STATUS'),
  );
};

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** Runs one admin command; returns the process exit code (0 ok, 1 failed, 2 usage). */
export async function runCli(argv: string[], admin: () => AdminService, io: CliIo): Promise<number> {
  const [group, action, ...rest] = argv;
  if (!group || group === 'help' || group === '--help' || group === '-h') {
    io.out(`${USAGE}\n`);
    return group ? 0 : 2;
  }
  const handler = commands[`${group} ${action ?? ''}`];
  if (!handler) {
    io.err(`error: unknown command "${[group, action].filter(Boolean).join(' ')}"\n\n${USAGE}\n`);
    return 2;
  }
  try {
    const result = await handler(rest, admin());
    io.out(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (err) {
    if (err instanceof AdminError) {
      io.err(`error: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
