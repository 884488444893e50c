/**
 * Heading slugs for site links. slugify's own character map does the transliteration (Czech,
 * Slovak, Polish, Hungarian, German, Ukrainian …); it is called without a locale so that the
 * same heading gets the same slug in every language: `ä → a`, `ö → o`, `ü → u`, `ß → ss`
 * (not the German `ae/oe/ue`, which would turn Slovak `ä` and Hungarian `ö/ü` into German).
 * We never call `slugify.extend`: it would change the map for every user of the package in the
 * process. The few letters slugify 1.6 lacks, and the symbols it would spell out in English
 * (`&` → "and", `%` → "percent"), are mapped here before slugify sees the text.
 */
import slugify from 'slugify';

const SUPPLEMENT: Record<string, string> = {
  ĺ: 'l',
  Ĺ: 'L',
  '&': ' ',
  '%': ' ',
  $: ' ',
  '<': ' ',
  '>': ' ',
  '|': ' ',
  '©': ' ',
  '®': ' ',
  '™': ' ',
};

const MAX_SLUG_LENGTH = 80;
/** What a heading without a single Latin-transliterable character becomes (e.g. Chinese). */
export const FALLBACK_SLUG = 'section';

/** Lower-case ASCII slug of one heading: `[a-z0-9]` words joined by single hyphens. */
export function slugifyHeading(text: string): string {
  const prepared = Array.from(text, (ch) => SUPPLEMENT[ch] ?? ch).join('');
  let slug = slugify(prepared, { lower: true, strict: true, trim: true })
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  if (slug.length > MAX_SLUG_LENGTH) {
    const cut = slug.slice(0, MAX_SLUG_LENGTH);
    slug = cut.includes('-') ? cut.slice(0, cut.lastIndexOf('-')) : cut;
  }
  return slug || FALLBACK_SLUG;
}

/** Hands out slugs unique within one page: the second "Size" is `size-2`, the third `size-3`. */
export class SlugRegistry {
  private readonly used = new Set<string>();

  /** The page-unique form of a slug made by {@link slugifyHeading}. */
  claim(base: string): string {
    let slug = base;
    for (let n = 2; this.used.has(slug); n += 1) slug = `${base}-${n}`;
    this.used.add(slug);
    return slug;
  }
}
