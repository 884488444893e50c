/**
 * The markup a rich text (an `html`-format field of a widget: a section's paragraph, the text
 * beside an image, an FAQ answer) may hold, declared once: the API's sanitiser
 * (sanitize.ts, `sanitizeRich`) keeps only this, and the editor (libs/editor) cleans a paste and
 * an edited text to the same before sending it. Browser-safe and without imports: the editor
 * bundles this file as `@catalogue/content/markup`.
 *
 * Paragraphs, line breaks, bold, italics, links and lists are what the editor's formatting
 * toolbar makes; sub-headings are kept because catalogue descriptions use them. Everything else
 * (tables, images, classes, styles, Office markup) is left out: images, videos and tables have
 * widgets of their own, which give them alt texts, titles and a layout that fits the design.
 */

/** Elements a rich text keeps (no attribute but a link's `href`). */
export const RICH_TAGS = ['p', 'br', 'strong', 'em', 'a', 'ul', 'ol', 'li', 'h3', 'h4'] as const;

/** Elements written as another allowed one: the same meaning in the form the toolbar writes. */
export const RICH_RENAMES: Readonly<Record<string, (typeof RICH_TAGS)[number]>> = {
  b: 'strong',
  i: 'em',
  h1: 'h3',
  h2: 'h3',
  h5: 'h4',
  h6: 'h4',
};

/** Schemes a rich text's link may use; a link must be absolute (a relative one leads nowhere on a shop). */
export const RICH_LINK_SCHEMES = ['http', 'https', 'mailto', 'tel'] as const;

/**
 * Elements left out together with their text: they hold no readable text of the content
 * (scripts, styles, Word's `xml` settings) or cannot be kept in a rich text without losing their
 * sense (a table's cells run together).
 */
export const RICH_DROPPED_WITH_TEXT = [
  'script',
  'style',
  'xml',
  'head',
  'title',
  'meta',
  'link',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'noscript',
  'textarea',
  'select',
  'table',
] as const;

/** Blocks that are dropped when they hold no readable text (Word's `<p>&nbsp;</p>`). */
export const RICH_BLOCKS = ['p', 'li', 'h3', 'h4', 'ul', 'ol'] as const;

/**
 * Word's list bullets and numbers (`<span style="mso-list:Ignore">·</span>`): the text of a
 * list marker, not of the content.
 */
export const OFFICE_LIST_MARKER = /mso-list\s*:\s*ignore/i;
