/**
 * Starter designs (public templates) to seed into `designs` / `design_widgets`, in the order
 * they are listed (their `position`). Keys are stable; the seed assigns the integer ids.
 */
import type { DesignDefinition } from './types';

export const SEED_DESIGNS: readonly DesignDefinition[] = [
  {
    key: 'product-classic',
    name: 'Classic product',
    name_translation: { default: 'Classic product', en: 'Classic product', cs: 'Klasický produkt' },
    category: 'product',
    type: 'public',
    widgets: [
      { widget: 'section' },
      { widget: 'image_text' },
      { widget: 'benefit' },
      { widget: 'parameters' },
      { widget: 'gallery', image_slot: 4 },
    ],
  },
  {
    key: 'product-story',
    name: 'Product story',
    name_translation: { default: 'Product story', en: 'Product story', cs: 'Příběh produktu' },
    category: 'product',
    type: 'public',
    widgets: [
      { widget: 'section', max_length: { paragraph: 1500 } },
      { widget: 'image_text' },
      { widget: 'testimonial' },
      { widget: 'faq', item_count: 3 },
      { widget: 'cta' },
    ],
  },
  {
    key: 'product-technical',
    name: 'Technical product',
    name_translation: { default: 'Technical product', en: 'Technical product', cs: 'Technický produkt' },
    category: 'product',
    type: 'public',
    widgets: [
      { widget: 'section', max_length: { paragraph: 600 } },
      { widget: 'parameters' },
      { widget: 'comparison' },
      { widget: 'video' },
      { widget: 'faq' },
    ],
  },
  {
    key: 'product-compact',
    name: 'Compact product',
    name_translation: { default: 'Compact product', en: 'Compact product', cs: 'Kompaktní produkt' },
    category: 'product',
    type: 'public',
    widgets: [
      { widget: 'section', max_length: { paragraph: 400 } },
      { widget: 'benefit', item_count: 3, max_length: { benefit_text: 150 } },
      { widget: 'parameters' },
    ],
  },
  {
    key: 'category-intro',
    name: 'Category introduction',
    name_translation: { default: 'Category introduction', en: 'Category introduction', cs: 'Úvod kategorie' },
    category: 'category',
    type: 'public',
    widgets: [{ widget: 'section' }, { widget: 'benefit', item_count: 4 }, { widget: 'faq', item_count: 4 }],
  },
  {
    key: 'category-guide',
    name: 'Buying guide',
    name_translation: { default: 'Buying guide', en: 'Buying guide', cs: 'Průvodce nákupem' },
    category: 'category',
    type: 'public',
    widgets: [
      { widget: 'section', max_length: { paragraph: 1500 } },
      { widget: 'image_text' },
      { widget: 'comparison', item_count: 5 },
      { widget: 'faq' },
      { widget: 'cta' },
    ],
  },
  {
    key: 'blog-article',
    name: 'Article',
    name_translation: { default: 'Article', en: 'Article', cs: 'Článek' },
    category: 'blog',
    type: 'public',
    widgets: [
      { widget: 'section', max_length: { paragraph: 2000 } },
      { widget: 'image_text' },
      { widget: 'section', max_length: { paragraph: 2000 } },
      { widget: 'gallery', image_slot: 3 },
      { widget: 'cta' },
    ],
  },
  {
    key: 'blog-howto',
    name: 'How-to',
    name_translation: { default: 'How-to', en: 'How-to', cs: 'Návod' },
    category: 'blog',
    type: 'public',
    widgets: [
      { widget: 'section' },
      { widget: 'video' },
      { widget: 'faq', item_count: 4 },
      { widget: 'cta' },
    ],
  },
  {
    key: 'page-landing',
    name: 'Landing page',
    name_translation: { default: 'Landing page', en: 'Landing page', cs: 'Vstupní stránka' },
    category: 'page',
    type: 'public',
    widgets: [
      { widget: 'section' },
      { widget: 'benefit', item_count: 6 },
      { widget: 'testimonial' },
      { widget: 'cta' },
    ],
  },
  {
    key: 'page-about',
    name: 'About us',
    name_translation: { default: 'About us', en: 'About us', cs: 'O nás' },
    category: 'page',
    type: 'public',
    widgets: [
      { widget: 'section', max_length: { paragraph: 2000 } },
      { widget: 'image_text' },
      { widget: 'divider' },
      { widget: 'gallery' },
      { widget: 'testimonial' },
    ],
  },
];
