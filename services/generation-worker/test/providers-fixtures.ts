// Shared arrangement of the provider tests: the seeded designs as structures, a generation
// context, and a fake OpenAI-compatible endpoint (nock) with its answers.
import nock from 'nock';
import {
  designStructure,
  fillDesign,
  SEED_DESIGNS,
  SEED_WIDGETS,
  type DesignStructure,
  type FillWidgetInput,
  type WidgetTemplate,
} from '@catalogue/content';
import { type GenerationContext, type OpenAiProviderOptions } from '../src/providers';

export const TEMPLATES: WidgetTemplate[] = SEED_WIDGETS.map((w, index) => ({ ...w, id: index + 1 }));
export const design = (key: string) => {
  const found = SEED_DESIGNS.find((d) => d.key === key);
  if (found === undefined) throw new Error(`no design ${key}`);
  return found;
};
/** Seeded designs with database-like ids (design_widget_id 10·design + position). */
export const STRUCTURES: DesignStructure[] = SEED_DESIGNS.map((d, i) =>
  designStructure(d, {
    design_id: i + 1,
    design_widget_ids: d.widgets.map((_, p) => (i + 1) * 10 + p + 1),
  }),
);
// product-story: section 11, image_text 12, testimonial 13, faq (3 items) 14, cta 15.
export const STORY = designStructure(design('product-story'), {
  design_id: 2,
  design_widget_ids: [11, 12, 13, 14, 15],
});

export const fills = (structure: DesignStructure, widgets: FillWidgetInput[]) =>
  fillDesign(structure, TEMPLATES, { widget: widgets });

export const CONTEXT: GenerationContext = {
  lang: 'cs',
  languages: ['default', 'cs'],
  name: 'Kožená peněženka Tom & Jerry',
  short_description: 'Praktická peněženka z pravé kůže. Vejde se do každé kapsy!',
  old_description:
    '<p>Praktická peněženka z pravé kůže.</p><p>Má <strong>8 slotů</strong> na karty a kapsu na mince. ' +
    'Vyrobeno v Česku.</p><ul><li>Ruční šití</li><li>Dárková krabička</li></ul>',
  parameter: 'Materiál: kůže\nBarva: hnědá\nRozměry = 10 x 12 cm\nTo je vše',
  ean: '8591234567890',
  prompt: 'Piš přátelsky.',
  research: [
    {
      url: 'https://maker.example/faq',
      text: 'Domů\nJak peněženku čistit?\nVlhkým hadříkem. Nepoužívejte rozpouštědla.\nMá peněženka záruku?\nAno, dva roky.',
    },
  ],
};

export const BASE = 'https://llm.example.test/v1';
export const KEY = 'sk-test-secret-123456';
export const USAGE = { prompt_tokens: 120, completion_tokens: 80, total_tokens: 200 };

export const options = (overrides: Partial<OpenAiProviderOptions> = {}): OpenAiProviderOptions => ({
  baseUrl: BASE,
  apiKey: KEY,
  model: 'gpt-test',
  timeoutMs: 2_000,
  maxAttempts: 3,
  backoffMs: 1,
  ...overrides,
});

export const completion = (content: unknown, usage: object | null = USAGE) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  model: 'gpt-test-2025',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: typeof content === 'string' ? content : JSON.stringify(content),
      },
      finish_reason: 'stop',
    },
  ],
  ...(usage ? { usage } : {}),
});

export const GOOD_ANSWER = {
  widgets: [
    {
      design_widget_id: 11,
      fields: { heading: 'Kožená peněženka', paragraph: `<p>${'Z pravé kůže, ručně šitá. '.repeat(80)}</p>` },
    },
    {
      design_widget_id: 14,
      fields: { heading: 'Časté dotazy' },
      items: [1, 2, 3, 4, 5].map((n) => ({ question: `Otázka ${n}?`, answer: `<p>Odpověď ${n}.</p>` })),
    },
    { design_widget_id: 15, fields: { button_label: 'Koupit', button_href: 'https://invented.example/buy' } },
    { design_widget_id: 99, fields: { heading: 'Unknown widget' } },
    { design_widget_id: 13, fields: { quote: 'Skvělá!', sentiment: 'unknown role' } },
  ],
};

export const SMALL_ANSWER = { widgets: [{ design_widget_id: 11, fields: { heading: 'Peněženka' } }] };

export const request = (structure: DesignStructure = STORY, context: GenerationContext = CONTEXT) => ({
  structure,
  context,
});

beforeAll(() => {
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
});
afterEach(() => nock.cleanAll());
// nock intercepts node:http by replacing it in the process, and jest runs the next test files of
// this worker in the same process: left active, every later file's HTTP requests (the fuzz
// client's raw requests among them) go through nock's socket stand-in, whose passthrough socket
// errors (a body still being written when the server answered early) are re-emitted where no
// listener waits and fail that file with `write EPIPE` / `write ECANCELED`. Each file that loads
// nock restores node:http when it ends.
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});
