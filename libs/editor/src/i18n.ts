import { ApiError } from './api';
import { FETCHED_LANGUAGES } from './i18n-languages';
import { isLicence, isOrigin } from './errors';
import { isObject } from './guards';
import { catalogueCs } from './messages/catalogue-cs';
import { cs } from './messages/cs';
import { en, type MessageKey, type Messages } from './messages/en';

/** The languages whose texts are in the bundle. */
const BUILT_IN: Record<string, Messages> = { en, cs };
/** English shows until a served language's texts are read (see i18n-languages.ts). */
export { FETCHED_LANGUAGES };
/** The fetched languages' texts read so far, and a counter of them (translators are rebuilt). */
const FETCHED: Record<string, Messages> = {};
const FETCHED_CATALOGUE: Record<string, Record<string, string>> = {};
let fetchedCount = 0;
const fetching = new Map<string, Promise<boolean>>();

/** The built-in languages and those served to read: what `ui-lang` is matched against. */
function editorLanguages(): string[] {
  return [...Object.keys(BUILT_IN), ...FETCHED_LANGUAGES];
}

/**
 * The served language whose texts `uiLang` needs and which are not read yet (null when none):
 * the editor reads them with {@link loadMessages}.
 */
export function messagesToLoad(uiLang: string, overrides: MessageOverrides = {}): string | null {
  const lang = negotiateLanguage(uiLang, [...new Set([...editorLanguages(), ...Object.keys(overrides)])]);
  const primary = lang.split('-')[0]!;
  return FETCHED_LANGUAGES.some((l) => l === primary) && !FETCHED[primary] ? primary : null;
}

/** Reads a served language's texts from `url` once; true when they arrived. */
export function loadMessages(url: string, lang: string): Promise<boolean> {
  let loading = fetching.get(lang);
  if (!loading) {
    loading = fetch(url, { credentials: 'omit' })
      .then((res): Promise<unknown> | null => (res.ok ? res.json() : null))
      .then((body) => {
        const { messages, catalogue } = isObject(body) ? body : {};
        if (!isObject(messages)) return false;
        FETCHED[lang] = { ...en, ...definedOnly(messages) };
        FETCHED_CATALOGUE[lang] = definedOnly(catalogue);
        fetchedCount++;
        return true;
      })
      .catch(() => false);
    // A failed read is tried again on the next render.
    void loading.then((ok) => ok || fetching.delete(lang));
    fetching.set(lang, loading);
  }
  return loading;
}
/** Names of the API's English catalogue texts (see messages/catalogue-cs.ts); English: the API's. */
const CATALOGUE_TEXTS: Record<string, Record<string, string>> = { cs: catalogueCs };

/**
 * A host's texts: per language tag, any messages to replace (`{cs: {add: 'Nový widget'}}`), or a
 * whole language to add (`{de: {...}}`; a key it leaves out is shown in English). The API's
 * catalogue texts too: `widget.<type>`, `widget.<type>.description`, `category.<key>`,
 * `hint.<role>`.
 */
export type MessageOverrides = Record<string, Partial<Record<MessageKey, string>> & Record<string, string>>;

export interface Translate {
  (key: MessageKey, params?: Record<string, string | number>): string;
  /** The language the texts are in. */
  readonly lang: string;
  /**
   * A text the API gives in English (a widget's name, a category, a field's hint) in this
   * language: `key` is `widget.<type>`, `widget.<type>.description`, `category.<key>` or
   * `hint.<role>`; `fallback` (the API's text) when there is none.
   */
  catalogue(key: string, fallback: string): string;
}

/**
 * The language of `requested` (`cs-CZ`, or a list `cs-CZ, de;q=0.9` as browsers send) among
 * `available`, by BCP 47 lookup: for each requested tag in order, the same tag (case aside), then
 * its primary subtag (`cs`), then an available tag with that primary subtag (`pt` → `pt-BR`);
 * `en` when none matches.
 */
export function negotiateLanguage(requested: string, available: readonly string[]): string {
  const byLower = new Map(available.map((tag) => [tag.toLowerCase(), tag]));
  const tags = requested
    .split(',')
    .map((part) => part.split(';')[0]!.trim().toLowerCase())
    .filter(Boolean);
  for (const tag of tags) {
    const exact = byLower.get(tag);
    if (exact) return exact;
    const primary = tag.split('-')[0]!;
    const base = byLower.get(primary);
    if (base) return base;
    const sibling = available.find((a) => a.toLowerCase().split('-')[0] === primary);
    if (sibling) return sibling;
  }
  return 'en';
}

function pluralRules(lang: string): Intl.PluralRules {
  try {
    return new Intl.PluralRules(lang);
  } catch {
    return new Intl.PluralRules('en');
  }
}

/**
 * The texts of `uiLang` (negotiated among the editor's languages and the host's; English for
 * any message the chosen language lacks). `{name}` is replaced by the value; `{name:one|few|other}`
 * picks the word form for that number by the language's plural rules (`{n:widget|widgets}`;
 * Czech `{n:widget|widgety|widgetů}`).
 */
export function translator(uiLang: string, overrides: MessageOverrides = {}): Translate {
  const lang = negotiateLanguage(uiLang, [...new Set([...editorLanguages(), ...Object.keys(overrides)])]);
  const CATALOGUES: Record<string, Messages> = { ...BUILT_IN, ...FETCHED };
  // A regional tag the host added (`cs-CZ`) builds on its language's texts (`cs`).
  const primary = lang.split('-')[0]!;
  const messages: Messages = {
    ...en,
    ...CATALOGUES[primary],
    ...CATALOGUES[lang],
    ...(primary !== lang && definedOnly(overrides[primary])),
    ...definedOnly(overrides[lang]),
  };
  const texts: Record<string, Record<string, string>> = { ...CATALOGUE_TEXTS, ...FETCHED_CATALOGUE };
  const catalogue: Record<string, string> = {
    ...texts[primary],
    ...texts[lang],
    ...(primary !== lang && definedOnly(overrides[primary])),
    ...definedOnly(overrides[lang]),
  };
  const plural = pluralRules(lang);
  const t = (key: MessageKey, params: Record<string, string | number> = {}) =>
    (messages[key] ?? key).replace(/\{(\w+)(?::([^}]*))?\}/g, (whole, name: string, forms?: string) => {
      if (!(name in params)) return whole;
      if (forms === undefined) return String(params[name]);
      const words = forms.split('|');
      const rule = plural.select(Number(params[name]));
      return (rule === 'one' ? words[0] : rule === 'few' && words.length > 2 ? words[1] : words.at(-1)) ?? '';
    });
  return Object.assign(t, {
    lang,
    catalogue: (key: string, fallback: string) =>
      Object.prototype.hasOwnProperty.call(catalogue, key) ? catalogue[key]! : fallback,
  });
}

/** The string messages of a host's map (anything else is left to the defaults). */
function definedOnly(map: unknown): Partial<Messages> & Record<string, string> {
  if (!isObject(map)) return {};
  return Object.fromEntries(
    Object.entries(map).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

let last:
  { uiLang: string; overrides: MessageOverrides | undefined; fetched: number; t: Translate } | undefined;

/**
 * {@link translator}, built again only when the language, the host's messages or the served
 * texts read change.
 */
export function cachedTranslator(uiLang: string, overrides: MessageOverrides | undefined): Translate {
  if (last?.uiLang !== uiLang || last.overrides !== overrides || last.fetched !== fetchedCount)
    last = { uiLang, overrides, fetched: fetchedCount, t: translator(uiLang, overrides) };
  return last.t;
}

/** A design's name in the UI language when it has one. */
export function designName(
  design: { name: string; name_translation?: Record<string, unknown> },
  t: Translate,
): string {
  const own = design.name_translation?.[t.lang];
  return typeof own === 'string' && own ? own : design.name;
}

/** Whether `key` names one of the editor's texts (one built from an API value may not). */
export function isMessageKey(key: string): key is MessageKey {
  return key in en;
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
  const body = isObject(err.body) ? err.body : {};
  if (err.code === 'network' || err.status === 0) return t('errNetwork');
  if (err.status === 401) return t('errToken');
  if (err.status === 403) {
    if (isLicence(err)) return t('errLicence');
    if (isOrigin(err)) return t('errOrigin', { origin: location.origin });
    return t('errForbidden', { message });
  }
  if (err.status === 404) return t('errNotFound', { message });
  if (err.status === 409) return t('errConflict');
  if (err.status === 412) return t('errStale');
  if (err.status === 422 && typeof body.required === 'number')
    return t('errCredits', {
      required: body.required,
      remaining: typeof body.remaining === 'number' ? body.remaining : 0,
    });
  if (err.status === 422 || err.status === 400) return t('errInvalid', { message: detailsOf(err) });
  if (err.status === 429) return t('errTooMany');
  if (err.status === 503) return t('errBusy');
  if (err.status >= 500)
    return t('errServer', { message: typeof body.request_id === 'string' ? body.request_id : message });
  return t('errOther', { status: err.status, message });
}

/** `{errors: {field: [..]}}` of a validation error, flattened into one line. */
function detailsOf(err: ApiError): string {
  const errors = isObject(err.body) ? err.body.errors : undefined;
  if (!isObject(errors)) return err.message;
  return Object.values(errors)
    .flatMap((v) => (Array.isArray(v) ? v.map(String) : [String(v)]))
    .join(' ');
}
