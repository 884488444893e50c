/**
 * The widget bar's icons, drawn inline (stroke in the text colour): symbol characters would
 * depend on the host page's fonts, and some (⧉) are missing from common ones. Each button
 * that shows one carries its own text label (aria-label and title).
 */
import { svg } from 'lit';

export type IconName = 'up' | 'down' | 'entries' | 'media' | 'favourite' | 'copy' | 'delete' | 'grip';

const PATHS: Record<IconName, ReturnType<typeof svg>> = {
  up: svg`<path d="M8 13V3M3.5 7.5 8 3l4.5 4.5" />`,
  down: svg`<path d="M8 3v10M3.5 8.5 8 13l4.5-4.5" />`,
  entries: svg`<path d="M5.5 4h8M5.5 8h8M5.5 12h8M2.5 4h.01M2.5 8h.01M2.5 12h.01" />`,
  media: svg`<rect x="2.5" y="3" width="11" height="10" rx="1" /><path d="m2.5 11 3.5-3.5 3 3 2-2 2.5 2.5M10.5 6h.01" />`,
  favourite: svg`<path d="m8 2 1.8 3.8 4.2.5-3.1 2.9.8 4.1L8 11.3l-3.7 2 .8-4.1L2 6.3l4.2-.5z" />`,
  copy: svg`<rect x="5.5" y="5.5" width="8" height="8" rx="1" /><path d="M10.5 3.5v-1h-8v8h1" />`,
  delete: svg`<path d="m4 4 8 8M12 4l-8 8" />`,
  grip: svg`<path d="M6 3.5h.01M10 3.5h.01M6 8h.01M10 8h.01M6 12.5h.01M10 12.5h.01" stroke-width="2.5" />`,
};

export function icon(name: IconName) {
  return svg`<svg class="glyph" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false"
    fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round">${PATHS[name]}</svg>`;
}
