import { ApiError } from './api';
import { cs } from './messages/cs';
import { en, type MessageKey, type Messages } from './messages/en';

const CATALOGUES: Record<string, Messages> = { en, cs };

export interface Translate {
  (key: MessageKey, params?: Record<string, string | number>): string;
  /** The language the texts are in. */
  readonly lang: string;
}

/**
 * The texts of `uiLang` (English when the editor has no messages file for it). `{name}` is
 * replaced by the value; `{name:one|few|other}` picks the word form for that number by the
 * language's plural rules (`{n:widget|widgets}`; Czech `{n:widget|widgety|widgetů}`).
 */
export function translator(uiLang: string): Translate {
  const lang = CATALOGUES[uiLang] ? uiLang : 'en';
  const messages = CATALOGUES[lang]!;
  const plural = new Intl.PluralRules(lang);
  const t = (key: MessageKey, params: Record<string, string | number> = {}) =>
    messages[key].replace(/\{(\w+)(?::([^}]*))?\}/g, (whole, name: string, forms?: string) => {
      if (!(name in params)) return whole;
      if (forms === undefined) return String(params[name]);
      const words = forms.split('|');
      const rule = plural.select(Number(params[name]));
      return (rule === 'one' ? words[0] : rule === 'few' && words.length > 2 ? words[1] : words.at(-1)) ?? '';
    });
  return Object.assign(t, { lang });
}

/** A design's name in the UI language when it has one. */
export function designName(
  design: { name: string; name_translation?: Record<string, unknown> },
  t: Translate,
): string {
  const own = design.name_translation?.[t.lang];
  return typeof own === 'string' && own ? own : design.name;
}

/** A content language as a shop owner reads it: "Czech (cs)", or the default language's name. */
export function languageName(t: Translate, code: string): string {
  if (code === 'default') return t('languageDefault');
  try {
    const name = new Intl.DisplayNames([t.lang], { type: 'language' }).of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

/**
 * A failure as a shop owner can read it: by the body's `code` when the service sends one, else
 * by status; the service's own message is quoted where it says what was wrong.
 */
export function errorMessage(t: Translate, err: unknown): string {
  if (!(err instanceof ApiError)) return t('errOther', { status: '?', message: String(err) });
  const message = err.message || String(err.status);
  const body = (err.body ?? {}) as { required?: number; remaining?: number; request_id?: string };
  if (err.code === 'network' || err.status === 0) return t('errNetwork');
  if (err.status === 401) return t('errToken');
  if (err.status === 403) {
    if (/licen[cs]e/i.test(message) || err.code?.includes('licen')) return t('errLicence');
    if (/origin/i.test(message) || err.code?.includes('origin'))
      return t('errOrigin', { origin: location.origin });
    return t('errForbidden', { message });
  }
  if (err.status === 404) return t('errNotFound', { message });
  if (err.status === 409) return t('errConflict');
  if (err.status === 422 && typeof body.required === 'number')
    return t('errCredits', { required: body.required, remaining: body.remaining ?? 0 });
  if (err.status === 422 || err.status === 400) return t('errInvalid', { message: detailsOf(err) });
  if (err.status === 429) return t('errTooMany');
  if (err.status === 503) return t('errBusy');
  if (err.status >= 500) return t('errServer', { message: body.request_id ?? message });
  return t('errOther', { status: err.status, message });
}

/** `{errors: {field: [..]}}` of a validation error, flattened into one line. */
function detailsOf(err: ApiError): string {
  const errors = (err.body as { errors?: Record<string, unknown> } | undefined)?.errors;
  if (!errors || typeof errors !== 'object') return err.message;
  return Object.values(errors)
    .flatMap((v) => (Array.isArray(v) ? v.map(String) : [String(v)]))
    .join(' ');
}
