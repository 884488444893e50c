import { renderSiteLink, slugifyHeading } from '@catalogue/content';
import { section } from './trees';

describe('slugifyHeading', () => {
  it.each([
    ['cs', 'Příliš žluťoučký kůň', 'prilis-zlutoucky-kun'],
    ['cs', 'Úpěl ďábelské ódy', 'upel-dabelske-ody'],
    ['sk', 'Žltý kôň', 'zlty-kon'],
    ['sk', 'Ľahký a ĺ, ŕ, ä', 'lahky-a-l-r-a'],
    ['pl', 'Łódź', 'lodz'],
    ['pl', 'Zażółć gęślą jaźń', 'zazolc-gesla-jazn'],
    ['hu', 'Őrült', 'orult'],
    ['hu', 'Űrhajó és tükör', 'urhajo-es-tukor'],
    ['de', 'Größe', 'grosse'],
    ['de', 'Äpfel über Öl', 'apfel-uber-ol'],
    ['uk', 'Привіт, світе', 'privit-svite'],
  ])('when a %s heading "%s" is slugified, then it becomes "%s"', (_lang, heading, slug) => {
    expect(slugifyHeading(heading)).toBe(slug);
  });

  it('when a heading has symbols, then they separate words instead of being spelled out in English', () => {
    expect(slugifyHeading('Tom & Jerry — 100% <new>')).toBe('tom-jerry-100-new');
  });

  it('when a heading has nothing transliterable, then a fixed fallback slug is used', () => {
    expect(slugifyHeading('中文')).toBe('section');
    expect(slugifyHeading('!!!')).toBe('section');
  });

  it('when a heading is very long, then the slug is cut at a word boundary', () => {
    const slug = slugifyHeading('word '.repeat(40));
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug.endsWith('word')).toBe(true);
  });

  it('when the same heading is slugified twice, then the slug is the same', () => {
    expect(slugifyHeading('Größe und Farbe')).toBe(slugifyHeading('Größe und Farbe'));
  });

  it('when any heading is slugified, then the slug is lower-case ASCII words joined by hyphens', () => {
    for (const heading of ['Příliš žluťoučký kůň', 'Łódź', 'Őrült', 'Größe', 'Žltý kôň', '  --A--b  ']) {
      expect(slugifyHeading(heading)).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
  });
});

describe('site link slugs', () => {
  it('when headings collide after transliteration, then later ones get -2, -3 suffixes', () => {
    const tree = [section(1, 1, 'Größe', 'a'), section(2, 4, 'Grosse', 'b'), section(3, 7, 'GRÖSSE', 'c')];
    expect(renderSiteLink(tree, 'default').list.map((l) => l.slug)).toEqual([
      'grosse',
      'grosse-2',
      'grosse-3',
    ]);
  });

  it('when a heading already looks like a suffixed slug, then slugs stay unique', () => {
    const tree = [section(1, 1, 'A', 'x'), section(2, 4, 'A', 'x'), section(3, 7, 'A 2', 'x')];
    const slugs = renderSiteLink(tree, 'default').list.map((l) => l.slug);
    expect(slugs).toEqual(['a', 'a-2', 'a-2-2']);
    expect(new Set(slugs).size).toBe(slugs.length);
  });
});
