/**
 * What the OpenAI-compatible provider reads back: the answer's widgets (or `Malformed`), link
 * fields checked against the URLs the context holds, and the token usage summed over attempts.
 */
import { isRecord } from '@catalogue/config';
import type { DesignStructure, FieldSpec, FillWidgetInput } from '@catalogue/content';
import { isFillable } from './fit';
import { answerErrors, type AnswerSchema } from './openai-schema';
import type { GenerationContext, TokenUsage } from './types';

/** URLs a link field may use: those the context itself contains (models invent links otherwise). */
export function contextUrls(context: GenerationContext): Set<string> {
  // The catalogue item's page is the context's too (a call to action links there).
  const urls = new Set(context.research.map((page) => page.url));
  if (context.url) urls.add(context.url);
  const texts = [context.prompt, context.short_description, context.old_description, context.parameter];
  for (const text of [...texts, ...context.research.map((page) => page.text)]) {
    for (const match of (text ?? '').matchAll(/https?:\/\/[^\s"'<>]+/g)) urls.add(match[0]);
  }
  return urls;
}

export class Malformed extends Error {}

/**
 * What endpoints that do not enforce the schema (JSON mode, a model that ignores it) commonly
 * write instead, read as meant: an id as a string of digits, a number where text is asked for.
 */
function readLeniently(data: unknown): void {
  if (!isRecord(data) || !Array.isArray(data.widgets)) return;
  const numbersAsText = (texts: unknown): void => {
    if (!isRecord(texts)) return;
    for (const [role, value] of Object.entries(texts)) {
      if (typeof value === 'number' && Number.isFinite(value)) texts[role] = String(value);
    }
  };
  for (const widget of data.widgets) {
    if (!isRecord(widget)) continue;
    const id = widget.design_widget_id;
    if (typeof id === 'string' && /^\d+$/.test(id.trim())) widget.design_widget_id = Number(id);
    numbersAsText(widget.fields);
    if (Array.isArray(widget.items)) widget.items.forEach(numbersAsText);
  }
}

const textsOf = (value: unknown): Record<string, string> =>
  isRecord(value)
    ? Object.fromEntries(
        Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      )
    : {};

/**
 * The answer's widgets, or Malformed: JSON (also inside a ```json fence, as some local models
 * write it, prose around it) whose types match `schema` (see answerErrors). Unknown ids and roles, texts over
 * their limit and items over their count pass here; fitting drops or cuts them.
 */
export function parseAnswer(content: string, schema: AnswerSchema): FillWidgetInput[] {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    // A model that was not held to the schema often wraps the object in prose and a fence.
    const fenced = /```(?:json)?\s*([\s\S]*?)\s*```/i.exec(content);
    try {
      data = JSON.parse(fenced?.[1] ?? '');
    } catch {
      throw new Malformed('the answer is not JSON');
    }
  }
  readLeniently(data);
  const [error] = answerErrors(schema, data);
  if (error !== undefined) throw new Malformed(error);
  const widgets = (data as { widgets: Array<Record<string, unknown>> }).widgets;
  // Images and icons are never taken from a model: it cannot know real image URLs.
  return widgets.map((widget) => ({
    design_widget_id: widget.design_widget_id as number,
    fields: textsOf(widget.fields),
    items: Array.isArray(widget.items) ? widget.items.map(textsOf) : [],
  }));
}

/** Drops link fields whose URL is not in the context. */
export function dropInventedUrls(
  structure: DesignStructure,
  widgets: FillWidgetInput[],
  allowed: Set<string>,
): void {
  const targets = new Map(structure.widget.filter(isFillable).map((w) => [w.design_widget_id, w]));
  const clean = (texts: Record<string, unknown> | undefined, specs: readonly FieldSpec[]): void => {
    if (texts === undefined) return;
    for (const spec of specs) {
      const value = texts[spec.role];
      if ((spec.format === 'url' || spec.format === 'video_url') && typeof value === 'string') {
        if (!allowed.has(value.trim())) delete texts[spec.role];
      }
    }
  };
  for (const widget of widgets) {
    const target = targets.get(widget.design_widget_id);
    if (target === undefined) continue;
    clean(widget.fields, target.field);
    widget.items?.forEach((item) => clean(item, target.item_field));
  }
}

export function addUsage(total: TokenUsage | null, raw: unknown): TokenUsage | null {
  if (!isRecord(raw)) return total;
  const n = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  const prompt = n(raw.prompt_tokens);
  const completion = n(raw.completion_tokens);
  const sum = n(raw.total_tokens) || prompt + completion;
  if (prompt === 0 && completion === 0 && sum === 0) return total;
  return {
    prompt_tokens: (total?.prompt_tokens ?? 0) + prompt,
    completion_tokens: (total?.completion_tokens ?? 0) + completion,
    total_tokens: (total?.total_tokens ?? 0) + sum,
  };
}
