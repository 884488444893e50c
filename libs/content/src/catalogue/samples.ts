/**
 * Sample texts for design previews and for a widget the editor adds from the catalogue where the
 * item has no data of its own. They are English placeholders; images are neutral placeholders.
 * Composition never uses them, and in an item's content every sample part is marked on its
 * element (`ContentElement.sample`, see ../starter.ts): the editor shows it as "to fill" and no
 * public output contains it (../sample.ts `publicTree`).
 */
import type { WidgetSample } from './types';

const image = (n: number): string => `https://placehold.co/800x600.png?text=Image+${n}`;
const icon = (n: number): string => `https://placehold.co/64x64.png?text=${n}`;

export const WIDGET_SAMPLES: Readonly<Record<string, WidgetSample>> = {
  section: {
    fields: {
      heading: 'Made for everyday use',
      paragraph:
        '<p>A short introduction to the product: what it is, who it is for and why it is worth a look.</p>',
    },
  },
  benefit: {
    fields: { heading: 'Why customers choose it' },
    items: [
      { benefit_title: 'Durable', benefit_text: 'Built from materials that last for years.' },
      { benefit_title: 'Easy to use', benefit_text: 'Ready in minutes, no tools needed.' },
      { benefit_title: 'Fair price', benefit_text: 'Quality you can afford.' },
      { benefit_title: 'Fast delivery', benefit_text: 'Ships the next working day.' },
      { benefit_title: 'Support', benefit_text: 'Help whenever you need it.' },
      { benefit_title: 'Warranty', benefit_text: 'Covered for two years.' },
    ],
    icons: [icon(1), icon(2), icon(3), icon(4), icon(5), icon(6)],
  },
  image_text: {
    fields: {
      heading: 'A closer look',
      paragraph: '<p>Describe a detail that the picture shows: a material, a feature, a use.</p>',
    },
    images: [image(1)],
  },
  parameters: {
    items: [
      { name: 'Weight', value: '1.2 kg' },
      { name: 'Dimensions', value: '30 × 20 × 10 cm' },
      { name: 'Colour', value: 'Graphite' },
    ],
  },
  faq: {
    fields: { heading: 'Questions and answers' },
    items: [
      { question: 'How long does delivery take?', answer: '<p>Usually two to three working days.</p>' },
      { question: 'Can I return it?', answer: '<p>Yes, within 30 days of delivery.</p>' },
      { question: 'Is there a warranty?', answer: '<p>Two years from the date of purchase.</p>' },
      { question: 'Does it come assembled?', answer: '<p>Yes, it is ready to use.</p>' },
      { question: 'How do I clean it?', answer: '<p>Wipe it with a damp cloth.</p>' },
    ],
  },
  cta: {
    fields: {
      heading: 'Ready to order?',
      text: 'Add it to your basket today and have it delivered within days.',
      button_label: 'Shop now',
      button_href: 'https://example.com/',
    },
  },
  gallery: { images: [image(1), image(2), image(3), image(4), image(5), image(6)] },
  video: {
    fields: { heading: 'See it in action', video_url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ' },
  },
  comparison: {
    fields: { heading: 'Compare the versions', label_a: 'Standard', label_b: 'Pro' },
    items: [
      { label: 'Capacity', value_a: '10 l', value_b: '20 l' },
      { label: 'Warranty', value_a: '2 years', value_b: '5 years' },
      { label: 'Colours', value_a: '2', value_b: '6' },
      { label: 'Weight', value_a: '1.2 kg', value_b: '1.6 kg' },
      { label: 'Accessories', value_a: 'Basic', value_b: 'Complete' },
      { label: 'Price', value_a: 'Lower', value_b: 'Higher' },
    ],
  },
  testimonial: {
    fields: {
      quote: 'Exactly what I was looking for, and it arrived the next day.',
      author: 'A happy customer',
    },
  },
};
