/**
 * Benefits are statements, not a parameter's name over its value. The builtin provider writes
 * one sentence per fact of the item (a `Name: value` line of `parameter`) in the job's language;
 * every provider's answer is checked the same way (`keepBenefitStatements`): an item whose text is
 * only a parameter's name or value, or no sentence at all, is dropped, and a benefits widget left
 * without items is left out.
 */
import { htmlToText, type DesignStructure, type FillWidgetInput, type Text } from '@catalogue/content';
import { collapse } from './text';

/** A fact of the item: a parameter's name and its value(s), as the context lists them. */
export interface Fact {
  title: string;
  text: string;
}

const VOWEL = /^[aáeéiíoóöőuúüű]/i;

/** The name inside a sentence: lower case unless it is an acronym or a name (`GORE-TEX`, `iPhone`). */
const inSentence = (name: string): string =>
  /^\p{Lu}\p{Ll}/u.test(name) ? name.charAt(0).toLowerCase() + name.slice(1) : name;

/** A name that reads as a plural (`Dimensions`, `Rozměry`): the verb agrees with it. */
const plural = (name: string, endings: RegExp): boolean => endings.test(name.trim());

/**
 * One sentence stating a fact, per content language. Only words of the language's grammar are
 * added (no noun of our own), so the sentence claims nothing the item's data does not say.
 */
const SENTENCES: Record<string, (name: string, value: string) => string> = {
  en: (name, value) => `The ${inSentence(name)} ${plural(name, /[^su]s$/i) ? 'are' : 'is'} ${value}.`,
  cs: (name, value) => `${name} ${plural(name, /[yi]$/i) ? 'jsou' : 'je'} ${value}.`,
  sk: (name, value) => `${name} ${plural(name, /[yi]$/i) ? 'sú' : 'je'} ${value}.`,
  de: (name, value) => `${name} ist ${value}.`,
  // "X to Y" needs no agreement.
  pl: (name, value) => `${name} to ${value}.`,
  // A nominal sentence: Hungarian has no copula here, only the article.
  hu: (name, value) => `${VOWEL.test(name) ? 'Az' : 'A'} ${inSentence(name)} ${value}.`,
  // A nominal sentence: Ukrainian leaves the copula out and writes a dash.
  uk: (name, value) => `${name} — ${value}.`,
};

/**
 * The language a job's words are in: its own, or for `default` the one the eshop names
 * (`default_language`); undefined when the shop has not said.
 */
export function wordsLanguage(lang: string, mainLanguage: string | undefined): string | undefined {
  const words = lang === 'default' ? mainLanguage : lang;
  return words !== undefined && SENTENCES[words] !== undefined ? words : undefined;
}

/** A fact as a benefit sentence in `lang` (see `wordsLanguage`), or undefined without a grammar for it. */
export function benefitSentence(fact: Fact, lang: string | undefined): string | undefined {
  const sentence = lang === undefined ? undefined : SENTENCES[lang];
  return sentence === undefined ? undefined : sentence(fact.title, fact.text.replace(/[.!?…]+$/u, ''));
}

const plain = (value: string): string => collapse(htmlToText(value)).toLowerCase();
const words = (value: string): number => value.split(/\s+/u).filter((w) => /\p{L}/u.test(w)).length;

/**
 * Whether a benefit's text states something: a sentence of at least three words that is not just
 * a fact's name, its value, or both (`Colour`, `Green`, `Colour: Green`).
 */
export function isBenefitStatement(text: string, facts: readonly Fact[]): boolean {
  const value = plain(text).replace(/[.!?…]+$/u, '');
  if (words(value) < 3) return false;
  return !facts.some((fact) => {
    const name = plain(fact.title);
    const said = plain(fact.text);
    return value === name || value === said || value === `${name}: ${said}` || value === `${name} ${said}`;
  });
}

const textIn = (text: Text | undefined, lang: string): string =>
  typeof text === 'string' ? text : (text?.[lang] ?? '');

/**
 * A provider's widgets with only the benefit items that state something (`isBenefitStatement`);
 * a benefits widget with none left, and nothing else, is dropped. Returns the widgets dropped
 * too, so the job can say why.
 */
export function keepBenefitStatements(
  structure: DesignStructure,
  widgets: readonly FillWidgetInput[],
  facts: readonly Fact[],
  lang: string,
): { widgets: FillWidgetInput[]; dropped: number[] } {
  const benefitWidgets = new Set(
    structure.widget
      .filter((w) => w.fillable && w.item_field.some((spec) => spec.role === 'benefit_text'))
      .map((w) => w.design_widget_id),
  );
  const out: FillWidgetInput[] = [];
  const dropped: number[] = [];
  for (const widget of widgets) {
    if (!benefitWidgets.has(widget.design_widget_id) || widget.items === undefined) {
      out.push(widget);
      continue;
    }
    const items = widget.items.filter((item) => isBenefitStatement(textIn(item.benefit_text, lang), facts));
    const rest = Object.keys(widget.fields ?? {}).length > 0 || (widget.image ?? []).length > 0;
    if (items.length === 0 && !rest) {
      dropped.push(widget.design_widget_id);
      continue;
    }
    const { items: _all, ...others } = widget;
    out.push(items.length > 0 ? { ...others, items } : others);
  }
  return { widgets: out, dropped };
}
