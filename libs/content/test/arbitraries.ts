/** fast-check arbitraries of hostile content trees, shared by the property tests. */
import fc from 'fast-check';
import type { ContentElement, ContentWidget, SnippetEntity } from '@catalogue/content';

const NASTY = [
  '<',
  '>',
  '"',
  "'",
  '&',
  '</script>',
  '<script>',
  '<img src=x onerror=alert(1)>',
  'javascript:',
  '<!--',
  ' ',
];

/** Strings mixing ordinary text with markup characters and fragments. */
export const nastyString = fc
  .array(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom(...NASTY)), { maxLength: 6 })
  .map((parts) => parts.join(''));

const langMap = fc.dictionary(fc.constantFrom('default', 'cs', 'sk', 'en', 'de', 'xx'), nastyString, {
  maxKeys: 4,
});
const tag = fc.constantFrom(
  'section',
  'div',
  'h1',
  'h2',
  'h3',
  'p',
  'a',
  'img',
  'iframe',
  'ul',
  'li',
  'script',
  'style',
  'svg',
  'td',
  'tr',
  'table',
  'blockquote',
  'details',
  'summary',
  'x',
);
const extension = fc.oneof(
  fc.constant([] as unknown[]),
  fc.record(
    {
      src: fc.oneof(
        nastyString,
        fc.constantFrom('https://cdn.test/a.jpg?w=1&h="2"', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'),
      ),
      href: fc.oneof(nastyString, fc.constantFrom("https://shop.test/a?b=1&c='2'", 'mailto:shop@shop.test')),
      alt: nastyString,
      title: langMap,
    },
    { requiredKeys: [] },
  ),
);

const element = (count: number) =>
  fc.record({
    id: fc.integer({ min: 0, max: count }),
    parent_id: fc.integer({ min: 0, max: count }),
    child_id: fc.integer({ min: -2, max: 5 }),
    class: nastyString,
    is_editable: fc.boolean(),
    tag,
    value: langMap,
    extension,
  }) as fc.Arbitrary<ContentElement>;

const contentWidget = fc.record({
  id: fc.integer({ min: -1, max: 20 }),
  key: fc.nat(10),
  widget_id: fc.nat(10),
  children: fc.array(element(12), { maxLength: 12 }),
  html: nastyString,
  is_original: fc.boolean(),
}) as fc.Arbitrary<ContentWidget>;

export const tree = fc.array(contentWidget, { maxLength: 4 });
export const entity = fc.record({
  type: fc.constantFrom('product', 'category', 'brand', 'blog', 'page'),
  name: langMap,
  description: langMap,
  images: fc.array(nastyString, { maxLength: 2 }),
  brand: nastyString,
  category: nastyString,
  url: nastyString,
  variants: fc.array(fc.record({ code: nastyString, ean: fc.oneof(fc.constant(null), nastyString) }), {
    maxLength: 3,
  }),
}) as fc.Arbitrary<SnippetEntity>;

export const lang = fc.constantFrom('default', 'cs', 'en');
