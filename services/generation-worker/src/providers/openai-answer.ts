/**
 * What the OpenAI-compatible provider reads back: the answer's widgets (or `Malformed`), link
 * fields checked against the URLs the context holds, and the token usage summed over attempts.
 */
import type { DesignStructure, FieldSpec, FillWidgetInput } from '@catalogue/content';
import { isFillable } from './fit';
import type { GenerationContext, TokenUsage } from './types';

/** URLs a link field may use: those the context itself contains (models invent links otherwise). */
export function contextUrls(context: GenerationContext): Set<string> {
  const urls = new Set(context.research.map((page) => page.url));
  const texts = [context.prompt, context.short_description, context.old_description, context.parameter];
  for (const text of [...texts, ...context.research.map((page) => page.text)]) {
    for (const match of (text ?? '').matchAll(/https?:\/\/[^\s"'<>]+/g)) urls.add(match[0]);
  }
  return urls;
}

export class Malformed extends Error {}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function checkTexts(value: unknown, where: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw new Malformed(`${where} is not an object`);
  const out: Record<string, string> = {};
  for (const [role, text] of Object.entries(value)) {
    if (text === null || text === undefined) continue;
    if (typeof text === 'number') out[role] = String(text);
    else if (typeof text === 'string') out[role] = text;
    else throw new Malformed(`${where}.${role} is not a string`);
  }
  return out;
}

/** The answer's widgets, or Malformed. Unknown ids and roles pass here; fitting drops them. */
export function parseAnswer(content: string): FillWidgetInput[] {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(content);
  let data: unknown;
  try {
    data = JSON.parse(fenced?.[1] ?? content);
  } catch {
    throw new Malformed('the answer is not JSON');
  }
  if (!isObject(data) || !Array.isArray(data.widgets)) throw new Malformed('no "widgets" array');
  return data.widgets.map((entry: unknown, index): FillWidgetInput => {
    const where = `widgets[${index}]`;
    if (!isObject(entry)) throw new Malformed(`${where} is not an object`);
    const raw = entry.design_widget_id;
    const id = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : raw;
    if (typeof id !== 'number' || !Number.isInteger(id))
      throw new Malformed(`${where}.design_widget_id is not an integer`);
    if (entry.items !== undefined && entry.items !== null && !Array.isArray(entry.items)) {
      throw new Malformed(`${where}.items is not an array`);
    }
    const items = Array.isArray(entry.items) ? entry.items : [];
    // Images and icons are never taken from a model: it cannot know real image URLs.
    return {
      design_widget_id: id,
      fields: checkTexts(entry.fields, `${where}.fields`),
      items: items.map((item: unknown, i) => checkTexts(item, `${where}.items[${i}]`)),
    };
  });
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
  if (!isObject(raw)) return total;
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
