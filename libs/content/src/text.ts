/**
 * Checks and prepares one caller text against its field spec. Shared by filling (which reports
 * the problems) and previews/composition (which trust their input but still store it safely).
 * Lengths are counted in characters (code points) of the text a reader sees.
 */
import type { FieldSpec } from './catalogue/types';
import { mapLangMap, type LangMap } from './model';
import { escapeText, htmlToText } from './sanitize';
import { sanitizeRich } from './sanitize-rich';
import { safeHref, videoEmbedUrl } from './urls';

const MARKUP = /<[a-zA-Z!/?]/;

export const textLength = (spec: FieldSpec, value: string): number =>
  [...(spec.format === 'html' ? htmlToText(value) : value.trim())].length;

/** Problems of one language's value, as message tails ("must …"). */
export function textProblems(spec: FieldSpec, value: string): string[] {
  const problems: string[] = [];
  if (spec.format === 'text' && MARKUP.test(value)) problems.push('must not contain HTML');
  if (spec.format === 'url' && safeHref(value) === null) problems.push('must be a valid URL');
  if (spec.format === 'video_url' && videoEmbedUrl(value) === null) {
    problems.push('must be a YouTube or Vimeo video URL');
  }
  if (textLength(spec, value) > spec.max_length) {
    problems.push(`must not be greater than ${spec.max_length} characters`);
  }
  return problems;
}

/** The stored form of a text: a rich text (only the markup of markup.ts), escaped text, or a checked (embed) URL. */
export function prepareText(spec: FieldSpec, text: LangMap): LangMap {
  switch (spec.format) {
    case 'html':
      return mapLangMap(text, (v) => sanitizeRich(v.trim()));
    case 'text':
      return mapLangMap(text, (v) => escapeText(v.trim()));
    case 'url':
      return mapLangMap(text, (v) => safeHref(v) ?? '');
    case 'video_url':
      return mapLangMap(text, (v) => videoEmbedUrl(v) ?? '');
  }
}
