/**
 * Sample content with every widget type of the catalogue, in English (`default`) and Czech, built
 * the way real content is: fillDesign for the fillable widgets, composeFromEntity for the
 * parameters table, the catalogue sample for the divider; rendered by renderHtml/renderSiteLink.
 * The Czech texts are longer and carry long words, which is what breaks layouts in practice.
 */
import {
  composeFromEntity,
  designPreviewTree,
  designStructure,
  fillDesign,
  renderHtml,
  renderSiteLink,
  SEED_WIDGETS,
  type ContentWidget,
  type DesignDefinition,
  type FillWidgetInput,
  type WidgetTemplate,
} from '@catalogue/content';

export const WIDGET_TYPES = SEED_WIDGETS.map((w) => w.type);
const TEMPLATES: WidgetTemplate[] = SEED_WIDGETS.map((w, i) => ({ ...w, id: i + 1 }));

const design = (widgets: string[]): DesignDefinition => ({
  key: 'visual',
  name: 'Every widget',
  name_translation: {},
  category: 'product',
  type: 'public',
  widgets: widgets.map((widget) => ({ widget })),
});

export const image = (n: number): string => `https://img.shop.test/800x600/photo-${n}.png`;
const icon = (n: number): string => `https://img.shop.test/64x64/icon-${n}.png`;
const t = (en: string, cs: string) => ({ default: en, cs });

const FILLED: Record<string, Omit<FillWidgetInput, 'design_widget_id'>> = {
  section: {
    fields: {
      heading: t('Made for everyday use', 'Vyrobeno pro každodenní používání'),
      paragraph: t(
        '<p>A light, <strong>water-resistant</strong> backpack for the city and short trips. The padded back panel keeps it comfortable all day.</p><ul><li>Laptop sleeve up to 15"</li><li>Hidden pocket for documents</li></ul>',
        '<p>Lehký, <strong>voděodolný</strong> batoh do města i na krátké výlety. Polstrovaná zádová část zajišťuje pohodlí po celý den, i při nejdelších cestováních.</p><ul><li>Přihrádka na notebook do 15"</li><li>Skrytá kapsa na doklady a cestovní pojištění</li></ul>',
      ),
    },
  },
  benefit: {
    fields: { heading: t('Why customers choose it', 'Proč si ho zákazníci vybírají') },
    items: [
      {
        benefit_title: t('Durable', 'Odolnost'),
        benefit_text: t('Built from materials that last for years.', 'Z materiálů, které vydrží roky.'),
      },
      {
        benefit_title: t('Easy to use', 'Jednoduché používání'),
        benefit_text: t('Ready in minutes, no tools needed.', 'Připraveno za pár minut, bez nářadí.'),
      },
      {
        benefit_title: t('Fast delivery', 'Rychlé doručení'),
        benefit_text: t('Ships the next working day.', 'Odesíláme následující pracovní den.'),
      },
    ],
    icon: [icon(1), icon(2), icon(3)],
  },
  image_text: {
    fields: {
      heading: t('A closer look at the details', 'Podrobnější pohled na detaily'),
      paragraph: t(
        '<p>The zips are covered, the seams taped and the fabric is recycled polyester. Everything you need stays dry.</p>',
        '<p>Zipy jsou kryté, švy podlepené a látka je z recyklovaného polyesteru. Všechno potřebné zůstane v suchu i za nepříznivého počasí.</p>',
      ),
    },
    image: [image(1)],
  },
  faq: {
    fields: { heading: t('Questions and answers', 'Otázky a odpovědi') },
    items: [
      {
        question: t('How long does delivery take?', 'Jak dlouho trvá doručení?'),
        answer: t('<p>Usually two to three working days.</p>', '<p>Obvykle dva až tři pracovní dny.</p>'),
      },
      {
        question: t('Can I return it?', 'Mohu zboží vrátit?'),
        answer: t('<p>Yes, within 30 days of delivery.</p>', '<p>Ano, do 30 dnů od doručení.</p>'),
      },
      {
        question: t('Is there a warranty?', 'Vztahuje se na výrobek záruka?'),
        answer: t('<p>Two years from the date of purchase.</p>', '<p>Dva roky od data nákupu.</p>'),
      },
    ],
  },
  cta: {
    fields: {
      heading: t('Ready to order?', 'Chcete objednat?'),
      text: t(
        'Add it to your basket today and have it delivered within days.',
        'Vložte ho do košíku ještě dnes a do několika dnů je u vás.',
      ),
      button_label: t('Shop now', 'Nakupovat'),
      button_href: 'https://shop.test/basket',
    },
  },
  gallery: { image: [1, 2, 3, 4, 5, 6].map(image) },
  video: {
    fields: {
      heading: t('See it in action', 'Podívejte se, jak funguje'),
      video_url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ',
    },
  },
  comparison: {
    fields: {
      heading: t('Compare the versions', 'Srovnání verzí'),
      label_a: t('Standard', 'Standardní'),
      label_b: t('Professional', 'Profesionální'),
    },
    items: [
      { label: t('Capacity', 'Objem'), value_a: t('20 l', '20 l'), value_b: t('30 l', '30 l') },
      {
        label: t('Accessories', 'Příslušenství'),
        value_a: t('Rain cover', 'Pláštěnka'),
        value_b: t('Rain cover, organiser', 'Pláštěnka, organizér'),
      },
      { label: t('Warranty', 'Záruka'), value_a: t('2 years', '2 roky'), value_b: t('5 years', '5 let') },
    ],
  },
  testimonial: {
    fields: {
      quote: t(
        'Exactly what I was looking for, and it arrived the next day.',
        'Přesně to, co jsem hledala, a druhý den to bylo doma.',
      ),
      author: t('Jana, Prague', 'Jana z Prahy'),
    },
  },
};

const PARAMETERS = [
  { name: t('Weight', 'Hmotnost'), value: '1.2 kg' },
  { name: t('Dimensions', 'Rozměry'), value: '45 × 30 × 15 cm' },
  { name: t('Material', 'Materiál'), value: t('Recycled polyester', 'Recyklovaný polyester') },
  { name: t('Colour', 'Barva'), value: ['Graphite', 'Navy'] },
];

function filled(type: string): ContentWidget[] {
  const result = fillDesign(designStructure(design([type]), { widgets: TEMPLATES }), TEMPLATES, {
    widget: [{ design_widget_id: 1, ...FILLED[type] }],
  });
  if (!result.ok) throw new Error(`sample ${type}: ${JSON.stringify(result.errors)}`);
  return result.tree;
}

function built(type: string): ContentWidget[] {
  if (type === 'parameters') {
    const structure = designStructure(design([type]), { widgets: TEMPLATES });
    return composeFromEntity(structure, TEMPLATES, { type: 'product', parameters: PARAMETERS });
  }
  if (type === 'divider') return designPreviewTree(design([type]), { widgets: TEMPLATES });
  return filled(type);
}

/** One widget of every type, in catalogue order, numbered as one tree. */
export function sampleTree(): ContentWidget[] {
  return WIDGET_TYPES.flatMap((type) => built(type)).map((widget, key) => ({ ...widget, id: key + 1, key }));
}

/** The content as a storefront shows it: the site-link navigation, then the widgets. */
export function sampleHtml(lang: 'default' | 'cs'): { nav: string; content: string } {
  const tree = sampleTree();
  return { nav: renderSiteLink(tree, lang).html, content: renderHtml(tree, lang) };
}
