/** Small text helpers shared by the providers. Lengths are code points, as fillDesign counts them. */

export const length = (text: string): number => [...text].length;

export const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

const TRAILING_JUNK = /[\s,;:(\-–—]+$/u;
const SENTENCE_END = /[.!?…]["'”»)]*(?=\s)/gu;

/**
 * Cuts a text to at most `max` characters: at the end of a sentence when one ends in the last
 * 40 % of the room, else at a word boundary, else (one long word) wherever the limit falls.
 * Whitespace is collapsed; the result is a prefix of the collapsed text (never anything added).
 */
export function cutText(text: string, max: number): string {
  const clean = collapse(text);
  if (max <= 0) return '';
  const points = [...clean];
  if (points.length <= max) return clean;
  const head = points.slice(0, max).join('');
  if (points[max] === ' ') return head.trim();
  let sentenceEnd = -1;
  for (const match of head.matchAll(SENTENCE_END)) sentenceEnd = match.index + match[0].length;
  if (sentenceEnd >= head.length * 0.6) return head.slice(0, sentenceEnd);
  const space = head.lastIndexOf(' ');
  if (space > 0) {
    const words = head.slice(0, space).replace(TRAILING_JUNK, '');
    if (words !== '') return words;
  }
  return head.trim();
}

/** Splits a text into sentences (kept with their punctuation); whitespace collapsed. */
export function sentences(text: string): string[] {
  return collapse(text)
    .split(/(?<=[.!?…]["'”»)]*)\s+(?=\S)/u)
    .filter((s) => s !== '');
}
