// What the editor's browser tests read and write through the v3 API directly (as the host's
// server would): products with widgets to edit, and what each product stores afterwards.
import type { Page } from 'playwright-core';
import { WHITE_LABEL_TOKEN_HEADER } from '@catalogue/http';
import type { Body } from './harness';

export interface Shop {
  whiteLabelToken: string;
}

export type ApiCall = (shop: Shop, path: string, init?: RequestInit) => Promise<Body>;

/** A v3 call with the shop's token from the host page's origin. */
export function apiOf(wl: () => string, origin: () => string): ApiCall {
  return async (shop, path, init = {}) => {
    const res = await fetch(`${wl()}/api/v3/white-label${path}`, {
      ...init,
      headers: {
        [WHITE_LABEL_TOKEN_HEADER]: shop.whiteLabelToken,
        Origin: origin(),
        'Content-Type': 'application/json',
      },
    });
    return res.json();
  };
}

/** Registers a product and adds catalogue widgets of these types to it, in this order. */
export async function productWith(api: ApiCall, shop: Shop, id: string, types: string[]): Promise<Body[]> {
  await api(shop, '/register-entity', {
    method: 'POST',
    body: JSON.stringify({ entity_id: id, type: 'product', title: id }),
  });
  const catalogue = (await api(shop, '/widget')).data as Body[];
  let widgets: Body[] = [];
  for (const type of types) {
    const widget = catalogue.find((w) => w.type === type);
    widgets = await api(shop, `/content/${id}/type/product`, {
      method: 'POST',
      body: JSON.stringify({ widget_id: widget.id }),
    });
  }
  return widgets;
}

/** The first heading (h2) element of a product's first widget. */
export function headingOf(widgets: Body[]): Body {
  return widgets[0].children.find((e: Body) => e.tag === 'h2');
}

/** Sets the first widget's heading of a product in the default language. */
export async function setHeading(api: ApiCall, shop: Shop, id: string, text: string): Promise<void> {
  const widgets = await api(shop, `/content/${id}/type/product`);
  await api(shop, `/content/${id}/type/product`, {
    method: 'PUT',
    body: JSON.stringify({
      [widgets[0].id]: { children: [{ id: headingOf(widgets).id, value: { default: text } }] },
    }),
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
