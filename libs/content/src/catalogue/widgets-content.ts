/** Widgets for text and media: section, image with text, questions, testimonial, gallery, video, divider. */
import { define, heading, headingNode, spec } from './define';
import type { WidgetDefinition } from './types';

export const CONTENT_WIDGETS: readonly WidgetDefinition[] = [
  define({
    type: 'section',
    name: 'Section',
    description: 'A heading with a paragraph of text.',
    category: 'text',
    fillable: true,
    field: [heading(), spec('paragraph', 'html', 1000, 'Body text; paragraphs, lists, bold and italics.')],
    image_slot: 0,
    icon_slot: 0,
    template: [
      headingNode('section'),
      { tag: 'div', class: 'ccs-section__text', text: { field: 'paragraph' } },
    ],
  }),
  define({
    type: 'image_text',
    name: 'Image with text',
    description: 'An image beside a heading and a paragraph.',
    category: 'text',
    fillable: true,
    field: [heading(), spec('paragraph', 'html', 800, 'Text beside the image.')],
    image_slot: 1,
    icon_slot: 0,
    template: [
      {
        tag: 'figure',
        class: 'ccs-image-text__media',
        children: [{ tag: 'img', class: 'ccs-image-text__image', src: 'image' }],
      },
      {
        tag: 'div',
        class: 'ccs-image-text__body',
        children: [
          headingNode('image-text'),
          { tag: 'div', class: 'ccs-image-text__text', text: { field: 'paragraph' } },
        ],
      },
    ],
  }),
  define({
    type: 'faq',
    name: 'Questions and answers',
    description: 'Frequently asked questions with their answers.',
    category: 'text',
    fillable: true,
    item_count: 5,
    field: [heading()],
    item_field: [
      spec('question', 'text', 200, 'The question as a customer would ask it.'),
      spec('answer', 'html', 600, 'The answer; short paragraphs or a list.'),
    ],
    image_slot: 0,
    icon_slot: 0,
    template: [
      headingNode('faq'),
      {
        tag: 'div',
        class: 'ccs-faq__list',
        children: [
          {
            // A native disclosure: answers open and close without JavaScript.
            tag: 'details',
            class: 'ccs-faq__item',
            repeat: 'items',
            children: [
              { tag: 'summary', class: 'ccs-faq__question', text: { item: 'question' } },
              { tag: 'div', class: 'ccs-faq__answer', text: { item: 'answer' } },
            ],
          },
        ],
      },
    ],
  }),
  define({
    type: 'testimonial',
    name: 'Testimonial',
    description: 'A quotation and who said it.',
    category: 'text',
    fillable: true,
    field: [
      spec('quote', 'text', 400, 'The quotation, without quotation marks.'),
      spec('author', 'text', 80, 'Who said it.'),
    ],
    image_slot: 0,
    icon_slot: 0,
    template: [
      {
        tag: 'figure',
        class: 'ccs-testimonial__figure',
        children: [
          {
            tag: 'blockquote',
            class: 'ccs-testimonial__quote',
            children: [{ tag: 'p', class: 'ccs-testimonial__text', text: { field: 'quote' } }],
          },
          { tag: 'figcaption', class: 'ccs-testimonial__author', text: { field: 'author' } },
        ],
      },
    ],
  }),
  define({
    type: 'gallery',
    name: 'Gallery',
    description: 'A grid of images.',
    category: 'media',
    fillable: true,
    image_slot: 6,
    icon_slot: 0,
    template: [
      {
        tag: 'ul',
        class: 'ccs-gallery__list',
        children: [
          {
            tag: 'li',
            class: 'ccs-gallery__item',
            repeat: 'images',
            children: [{ tag: 'img', class: 'ccs-gallery__image', src: 'image' }],
          },
        ],
      },
    ],
  }),
  define({
    type: 'video',
    name: 'Video',
    description: 'An embedded YouTube or Vimeo video with a heading.',
    category: 'media',
    fillable: true,
    field: [heading(), spec('video_url', 'video_url', 300, 'Link to a YouTube or Vimeo video.')],
    image_slot: 0,
    icon_slot: 0,
    template: [
      headingNode('video'),
      {
        tag: 'div',
        class: 'ccs-video__frame',
        children: [
          {
            tag: 'iframe',
            class: 'ccs-video__embed',
            src: { field: 'video_url' },
            title: { field: 'heading' },
          },
        ],
      },
    ],
  }),
  define({
    type: 'divider',
    name: 'Divider',
    description: 'A horizontal rule between widgets.',
    category: 'layout',
    fillable: false,
    reason: 'no_content_field',
    image_slot: 0,
    icon_slot: 0,
    template: [{ tag: 'hr', class: 'ccs-divider__rule' }],
  }),
];
