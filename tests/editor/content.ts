// What the editor's browser tests read and write through the v3 API directly (as the host's
// server would): products with widgets to edit, and what each product stores afterwards.
import type { Page } from 'playwright-core';
import type { Schemas } from '@catalogue/client';
import type { Shop } from './harness';

/** A content widget of a product and one of its elements, as the v3 API answers them. */
export type Widget = Schemas['WlContentWidget'];
export type WidgetElement = Schemas['WlContentElement'];

/** Registers a product and adds catalogue widgets of these types to it, in this order. */
export async function productWith(shop: Shop, id: string, types: string[]): Promise<Widget[]> {
  await shop.host('POST', '/register-entity', { entity_id: id, type: 'product', title: id });
  const catalogue = (await shop.host('GET', '/widget')).body.data;
  let widgets: Widget[] = [];
  for (const type of types) {
    const widget = catalogue.find((w) => w.type === type);
    if (!widget) throw new Error(`the catalogue has no widget of type ${type}`);
    const added = await shop.host('POST', `/content/${id}/type/product`, { widget_id: widget.id });
    expect(added.status).toBe(200);
    widgets = added.body;
  }
  return widgets;
}

/** The first heading (h2) element of a product's first widget. */
export function headingOf(widgets: readonly Widget[]): WidgetElement {
  const heading = widgets[0]?.children.find((e) => e.tag === 'h2');
  if (!heading) throw new Error(`no heading in the first widget of ${JSON.stringify(widgets)}`);
  return heading;
}

/** An element's attributes (`src`, `href`, `alt`, `title`); none is answered as `[]`. */
export function attributesOf(
  element: Pick<WidgetElement, 'extension'>,
): Exclude<WidgetElement['extension'], unknown[]> {
  return Array.isArray(element.extension) ? {} : element.extension;
}

/** Sets the first widget's heading of a product in the default language. */
export async function setHeading(shop: Shop, id: string, text: string): Promise<void> {
  const widgets = (await shop.host('GET', `/content/${id}/type/product`)).body;
  await shop.host('PUT', `/content/${id}/type/product`, {
    [widgets[0]!.id]: { children: [{ id: headingOf(widgets).id, value: { default: text } }] },
  });
}

/** The editor's shadow root, for expressions evaluated in the page. */
export const ROOT = `document.querySelector('ccs-editor').shadowRoot`;

/** The text of the editor's first editable text (the first widget's heading). */
export function firstText(page: Page): Promise<string | null> {
  return page.evaluate(`${ROOT}.querySelector('li.widget .ccs-editable')?.textContent ?? null`) as Promise<
    string | null
  >;
}

/** What element has focus: in the editor (its tag and text) or outside it (`body`). */
export function focused(page: Page): Promise<string> {
  return page.evaluate(`(() => {
    const inner = ${ROOT}.activeElement;
    if (inner) return inner.tagName.toLowerCase() + ':' + (inner.textContent ?? '').trim().slice(0, 40);
    return document.activeElement === document.querySelector('ccs-editor') ? 'ccs-editor' : document.activeElement.tagName.toLowerCase();
  })()`) as Promise<string>;
}
