/** Widgets that sell: benefits, the parameters table, a comparison table, a call to action. */
import { define, heading, headingNode, spec } from './define';
import type { WidgetDefinition } from './types';

export const COMMERCE_WIDGETS: readonly WidgetDefinition[] = [
  define({
    type: 'benefit',
    name: 'Benefits',
    description: 'A list of benefits, each with an icon, a short title and a sentence.',
    category: 'commerce',
    fillable: true,
    item_count: 3,
    field: [heading()],
    item_field: [
      spec('benefit_title', 'text', 80, 'The benefit in a few words.'),
      spec('benefit_text', 'text', 300, 'One or two sentences explaining the benefit.'),
    ],
    image_slot: 0,
    icon_slot: 3,
    icon_per_item: true,
    template: [
      headingNode('benefit'),
      {
        tag: 'ul',
        class: 'ccs-benefit__list',
        children: [
          {
            tag: 'li',
            class: 'ccs-benefit__item',
            repeat: 'items',
            children: [
              { tag: 'img', class: 'ccs-benefit__icon', src: 'icon' },
              { tag: 'h3', class: 'ccs-benefit__title', text: { item: 'benefit_title' } },
              { tag: 'p', class: 'ccs-benefit__text', text: { item: 'benefit_text' } },
            ],
          },
        ],
      },
    ],
  }),
  define({
    type: 'parameters',
    name: 'Parameters table',
    description: "The item's parameters and their values, filled from the catalogue data.",
    category: 'commerce',
    fillable: false,
    reason: 'filled_from_data',
    item_count: 100,
    item_field: [
      spec('name', 'text', 120, 'Parameter name.'),
      spec('value', 'text', 250, 'Parameter value(s).'),
    ],
    image_slot: 0,
    icon_slot: 0,
    template: [
      {
        tag: 'table',
        class: 'ccs-parameters__table',
        children: [
          {
            tag: 'tbody',
            class: '',
            children: [
              {
                tag: 'tr',
                class: 'ccs-parameters__row',
                repeat: 'items',
                children: [
                  { tag: 'th', class: 'ccs-parameters__name', text: { item: 'name' } },
                  { tag: 'td', class: 'ccs-parameters__value', text: { item: 'value' } },
                ],
              },
            ],
          },
        ],
      },
    ],
  }),
  define({
    type: 'cta',
    name: 'Call to action',
    description: 'A heading, a sentence and a button linking onwards.',
    category: 'commerce',
    fillable: true,
    field: [
      heading(100),
      spec('text', 'text', 300, 'One or two sentences that lead to the button.'),
      spec('button_label', 'text', 40, 'Text of the button.'),
      spec('button_href', 'url', 500, 'Absolute http(s) or mailto URL the button opens.'),
    ],
    image_slot: 0,
    icon_slot: 0,
    template: [
      headingNode('cta'),
      { tag: 'p', class: 'ccs-cta__text', text: { field: 'text' } },
      {
        tag: 'p',
        class: 'ccs-cta__action',
        children: [
          {
            tag: 'a',
            class: 'ccs-cta__button',
            text: { field: 'button_label' },
            href: { field: 'button_href' },
          },
        ],
      },
    ],
  }),
  define({
    type: 'comparison',
    name: 'Comparison table',
    description: 'Two options compared row by row.',
    category: 'commerce',
    fillable: true,
    item_count: 6,
    field: [
      heading(),
      spec('label_a', 'text', 60, 'Name of the first option (column heading).'),
      spec('label_b', 'text', 60, 'Name of the second option (column heading).'),
    ],
    item_field: [
      spec('label', 'text', 80, 'What is compared in this row.'),
      spec('value_a', 'text', 120, 'Value for the first option.'),
      spec('value_b', 'text', 120, 'Value for the second option.'),
    ],
    image_slot: 0,
    icon_slot: 0,
    template: [
      headingNode('comparison'),
      {
        tag: 'table',
        class: 'ccs-comparison__table',
        children: [
          {
            tag: 'thead',
            class: '',
            children: [
              {
                tag: 'tr',
                class: '',
                children: [
                  { tag: 'th', class: 'ccs-comparison__corner' },
                  { tag: 'th', class: 'ccs-comparison__option', text: { field: 'label_a' } },
                  { tag: 'th', class: 'ccs-comparison__option', text: { field: 'label_b' } },
                ],
              },
            ],
          },
          {
            tag: 'tbody',
            class: '',
            children: [
              {
                tag: 'tr',
                class: 'ccs-comparison__row',
                repeat: 'items',
                children: [
                  { tag: 'th', class: 'ccs-comparison__label', text: { item: 'label' } },
                  { tag: 'td', class: 'ccs-comparison__value', text: { item: 'value_a' } },
                  { tag: 'td', class: 'ccs-comparison__value', text: { item: 'value_b' } },
                ],
              },
            ],
          },
        ],
      },
    ],
  }),
];
