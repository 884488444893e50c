// `eshop create|show|list|set`: eshops and their settings.
import {
  AdminError,
  MAX_CREDITS,
  parseDay,
  parseLanguages,
  parseOrigin,
  parsePositiveInt,
} from '../admin.service';
import type { EshopInput } from '@catalogue/db';
import { presentDetails, presentEshop } from '../present';
import {
  collect,
  contentFallback,
  defaultLanguage,
  eshopId,
  eshopName,
  MAX_RATE_LIMIT,
  MAX_REVISIONS_KEEP,
  onOff,
  publishMode,
  type CommandGroup,
} from './options';

/** The options of `eshop create`, as commander parses the ones declared there. */
interface EshopCreateOptions {
  name?: string;
  languages: string;
  origin: string[];
  credits?: string;
  siteLink?: boolean;
  richSnippet?: boolean;
  reviewRequired?: boolean;
  licenceUntil?: string;
}

export const eshopCommands: CommandGroup = (program, admin, answer) => {
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
    .action(async (o: EshopCreateOptions) => {
      const created = await admin().createEshop({
        name: eshopName(o.name),
        languages: parseLanguages(o.languages),
        origins: o.origin.map(parseOrigin),
        credits: o.credits === undefined ? 0 : parsePositiveInt(o.credits, '--credits', MAX_CREDITS),
        enableSiteLink: o.siteLink === true,
        enableRichSnippet: o.richSnippet === true,
        reviewRequired: o.reviewRequired === true,
        licenceValidUntil: o.licenceUntil === undefined ? null : parseDay(o.licenceUntil),
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
    .option('--publish-mode <immediate|draft>', "whether the editor's writes wait as drafts until published")
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
      if (o.publishMode !== undefined) patch.publishMode = publishMode(o.publishMode);
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
};
