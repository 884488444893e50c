// Parameter names and values are one string for every language (the specification's parameters
// have no multilingual support): the editor never flags them "not translated yet", while a prose
// text without its own translation still is.
import type { ContentElement } from '@catalogue/content/v3';
import { markOf } from '../../libs/editor/src/marks';

const element = (cls: string, value: Record<string, string>): ContentElement => ({
  id: 1,
  parent_id: 0,
  child_id: 0,
  class: cls,
  is_editable: true,
  tag: 'td',
  value,
  extension: [],
});

describe('editor marks of language-neutral data', () => {
  test.each(['ccs-parameters__name', 'ccs-parameters__value'])(
    'when a %s cell has only its one string and cs is shown, then it is not marked',
    (cls) => {
      expect(markOf(element(cls, { default: 'Green' }), 'cs')).toBeNull();
      expect(markOf(element(cls, { default: 'Green' }), 'en')).toBeNull();
    },
  );

  test('when a prose text has no cs text and cs is shown, then it is still marked as a fallback', () => {
    expect(markOf(element('ccs-section__heading', { default: 'Chair' }), 'cs')).toBe('fallback');
  });

  test('when a parameter cell still holds a catalogue sample, then it is marked to fill', () => {
    const sample = { ...element('ccs-parameters__value', { default: 'Sample' }), sample: ['value' as const] };
    expect(markOf(sample, 'cs')).toBe('sample');
  });
});
