// Language detection for `npm run eval:content` (franc, an ES module: loaded by Node's require
// of ES modules, which Jest's loader does not do; so the Jest tests leave this file out).
import { franc } from 'franc';

/** ISO 639-3 of the content languages, as franc names them; `default` is the fixture's English. */
export const FRANC_CODE: Record<string, string> = {
  default: 'eng',
  en: 'eng',
  cs: 'ces',
  de: 'deu',
  sk: 'slk',
  pl: 'pol',
  hu: 'hun',
  uk: 'ukr',
};
const CANDIDATES = [...new Set(Object.values(FRANC_CODE))];
/** Shorter texts are not judged: trigram detection is unreliable below this. */
export const MIN_DETECT_LENGTH = 40;

/** The detected language of a text among the service's languages, or null when too short. */
export function detectLanguage(text: string): string | null {
  if (text.length < MIN_DETECT_LENGTH) return null;
  const code = franc(text, { only: CANDIDATES, minLength: MIN_DETECT_LENGTH });
  return code === 'und' ? null : code;
}
