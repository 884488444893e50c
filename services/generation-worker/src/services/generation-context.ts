/**
 * What a generation is given: the context snapshot stored on the job row (read defensively),
 * the selected prompt, the research pages, and the provider's texts in the job's language.
 */
import type { FillWidgetInput, Text } from '@catalogue/content';
import { promptsRepository, type GenerateJobContext, type Knex } from '@catalogue/db';
import { fetchResearch, type ResearchPage } from '../research';
import type { GenerationDeps } from './generation-end';

/** What the worker uses of the stored context, with its defaults applied. */
export type JobContext = Required<
  Pick<GenerateJobContext, 'remove_exist_widget' | 'use_serp_context' | 'use_web_research' | 'search_web'>
> &
  Omit<GenerateJobContext, 'search_model' | 'use_ai_profile'>;

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;
const int = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;

/**
 * The stored snapshot read defensively (it is JSON from the database, and rows outlive the code
 * that wrote them): a blank text or a value of the wrong type counts as not sent.
 */
export function readContext(stored: GenerateJobContext): JobContext {
  const raw: Partial<Record<keyof GenerateJobContext, unknown>> = stored;
  return {
    name: str(raw.name),
    short_description: str(raw.short_description),
    old_description: str(raw.old_description),
    parameter: str(raw.parameter),
    ean: str(raw.ean),
    prompt_id: int(raw.prompt_id),
    paragraph_length: int(raw.paragraph_length),
    remove_exist_widget: raw.remove_exist_widget === true,
    use_serp_context: raw.use_serp_context === true,
    use_web_research: raw.use_web_research === true,
    search_web: Array.isArray(raw.search_web)
      ? raw.search_web.filter((url): url is string => typeof url === 'string' && url.trim() !== '')
      : [],
  };
}

/** The instructions of the selected prompt: a prompt every eshop sees or one of this eshop's own. */
export async function promptText(
  db: Knex,
  eshopId: number,
  promptId: number | undefined,
): Promise<string | undefined> {
  if (promptId === undefined) return undefined;
  return str((await promptsRepository.find(db, eshopId, promptId))?.prompt);
}

/** A provider's plain texts as language maps of the job's language. */
export function inLanguage(widgets: readonly FillWidgetInput[], lang: string): FillWidgetInput[] {
  const texts = (record: Record<string, Text>): Record<string, Text> =>
    Object.fromEntries(
      Object.entries(record).map(([role, text]) => [
        role,
        typeof text === 'string' ? { [lang]: text } : text,
      ]),
    );
  return widgets.map((widget) => ({
    ...widget,
    ...(widget.fields ? { fields: texts(widget.fields) } : {}),
    ...(widget.items ? { items: widget.items.map(texts) } : {}),
  }));
}

export function fillProblems(errors: Record<string, string[]>): string {
  return Object.values(errors).flat().join(' ');
}

export async function research(deps: GenerationDeps, context: JobContext): Promise<ResearchPage[]> {
  if (!context.use_web_research || context.search_web.length === 0) return [];
  const result = await fetchResearch(context.search_web, deps.research);
  // Reasons only: the URLs are the host's data and may carry tokens in their query strings.
  if (result.refused.length > 0) {
    deps.logger.info({ refused: result.refused.map((r) => r.reason) }, 'research pages not read');
  }
  return result.pages;
}
