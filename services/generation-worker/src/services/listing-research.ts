/**
 * What web research adds to a listing row: the pages its URL fields name, and the `Label: value`
 * lines found there as parameters with a confidence and the pages as references.
 */
import type { ListingField, ListingParameter } from '@catalogue/db';
import { parameterPairs } from '../providers';
import type { ResearchPage } from '../research';

/** Feed fields holding the address of the product's page (read for research). */
export const RESEARCH_URL_FIELDS = ['url', 'source_url'] as const;

/** A `Label: value` line found on one page. */
export const RESEARCH_CONFIDENCE = 60;
/** The same label and value found on two or more pages. */
export const CONFIRMED_CONFIDENCE = 80;
/** Pages disagree about the value: the first one is kept, flagged as doubtful. */
export const DISPUTED_CONFIDENCE = 30;

const MAX_LABEL = 60;
const MAX_LABEL_WORDS = 6;
const MAX_VALUE = 200;
const MAX_RESEARCH_PARAMETERS = 50;

export const isUrl = (value: string): boolean => /^https?:\/\//i.test(value);

/** The http(s) addresses in the row's URL fields, each once. */
export function researchUrls(field: Record<string, ListingField>): string[] {
  const urls: string[] = [];
  for (const name of RESEARCH_URL_FIELDS) {
    const value = field[name]?.value;
    for (const url of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      if (typeof url === 'string' && isUrl(url.trim()) && !urls.includes(url.trim())) urls.push(url.trim());
    }
  }
  return urls;
}

/** A `Label: value` pair that reads like a product property (not a URL cut at its colon, not prose). */
const plausiblePair = (label: string, value: string): boolean =>
  label.length <= MAX_LABEL &&
  label.split(/\s+/).length <= MAX_LABEL_WORDS &&
  !/https?:|www\.|\bhttps?$/i.test(label) &&
  /\p{L}/u.test(label) &&
  value.length <= MAX_VALUE &&
  !value.startsWith('//');

/**
 * Parameters found on the research pages: `Label: value` lines (also `Label = value` and
 * tab-separated), one per label, never a label in `known` (the feed's own parameters win).
 */
export function researchParameters(
  pages: readonly ResearchPage[],
  known: readonly ListingParameter[],
): ListingParameter[] {
  const taken = new Set(known.map((p) => p.label.trim().toLowerCase()));
  const found = new Map<string, ListingParameter>();
  for (const page of pages) {
    for (const pair of parameterPairs(page.text)) {
      const label = pair.title;
      const value = pair.text;
      const id = label.toLowerCase();
      if (taken.has(id) || !plausiblePair(label, value)) continue;
      const seen = found.get(id);
      if (seen === undefined) {
        if (found.size >= MAX_RESEARCH_PARAMETERS) continue;
        found.set(id, {
          label,
          value,
          source: 'research',
          confidence: RESEARCH_CONFIDENCE,
          reference: [page.url],
        });
      } else if (!seen.reference?.includes(page.url)) {
        if (seen.value.toLowerCase() === value.toLowerCase()) {
          if (seen.confidence !== DISPUTED_CONFIDENCE) seen.confidence = CONFIRMED_CONFIDENCE;
          seen.reference = [...(seen.reference ?? []), page.url];
        } else {
          seen.confidence = DISPUTED_CONFIDENCE;
        }
      }
    }
  }
  return [...found.values()];
}
