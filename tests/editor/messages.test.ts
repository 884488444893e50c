// The editor speaks every content language of the service: each language's texts have exactly
// the English keys (a key missing or left over in any language fails here) and the same
// placeholders in each text, and the languages read on demand are the service's others.
import { CONTENT_LANGUAGES } from '@catalogue/config';
import { FETCHED_LANGUAGES } from '../../libs/editor/src/i18n-languages';
import { cs } from '../../libs/editor/src/messages/cs';
import { de } from '../../libs/editor/src/messages/de';
import { en } from '../../libs/editor/src/messages/en';
import { hu } from '../../libs/editor/src/messages/hu';
import { pl } from '../../libs/editor/src/messages/pl';
import { sk } from '../../libs/editor/src/messages/sk';
import { uk } from '../../libs/editor/src/messages/uk';

const LANGUAGES: Record<string, Record<string, string>> = { en, cs, sk, de, pl, hu, uk };

/** The names of a text's placeholders (`{name}`, `{n:one|other}` → `n`), sorted, once each. */
const placeholders = (text: string) =>
  [...new Set([...text.matchAll(/\{(\w+)[:}]/g)].map((m) => m[1]))].sort();

describe('the editor UI languages', () => {
  test('when the languages are listed, then they are every content language of the service', () => {
    expect(Object.keys(LANGUAGES).sort()).toEqual(CONTENT_LANGUAGES.filter((l) => l !== 'default').sort());
    expect([...FETCHED_LANGUAGES].sort()).toEqual(
      Object.keys(LANGUAGES)
        .filter((l) => l !== 'en' && l !== 'cs')
        .sort(),
    );
  });

  test.each(Object.keys(LANGUAGES))(
    'when the %s texts are compared with the English ones, then no key is missing or extra',
    (lang) => {
      const keys = Object.keys(en);
      const own = Object.keys(LANGUAGES[lang]!);
      expect({
        missing: keys.filter((k) => !own.includes(k)),
        extra: own.filter((k) => !keys.includes(k)),
      }).toEqual({
        missing: [],
        extra: [],
      });
    },
  );

  test.each(Object.keys(LANGUAGES))(
    'when the %s texts are read, then each has the English placeholders',
    (lang) => {
      const differing = Object.entries(en)
        .filter(
          ([key, text]) =>
            JSON.stringify(placeholders(LANGUAGES[lang]![key]!)) !== JSON.stringify(placeholders(text)),
        )
        .map(([key]) => key);
      expect(differing).toEqual([]);
    },
  );

  test.each(Object.keys(LANGUAGES).filter((l) => l !== 'en'))(
    'when the %s texts are read, then none is empty and most are translated',
    (lang) => {
      const texts = LANGUAGES[lang]!;
      expect(Object.entries(texts).filter(([, t]) => t.trim() === '')).toEqual([]);
      const same = Object.keys(en).filter((k) => texts[k] === (en as Record<string, string>)[k]);
      // Only texts that are the same words in both (a number pair, "Widgets") may stay English.
      expect(same.length).toBeLessThan(Object.keys(en).length / 10);
    },
  );
});
