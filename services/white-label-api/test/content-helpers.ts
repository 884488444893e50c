// Shared arrangement of the content-operation tests: the service in-process, eshops with a
// white-label client whose every response is checked against docs/openapi.yaml, registered
// entities, and readers of what is stored.
import type { ContentWidget } from '@catalogue/content';
import { widgetTemplates } from '@catalogue/content-store';
import { contentRepository, wlEntitiesRepository, type WlEntityType } from '@catalogue/db';
import { makeEshop, serveServiceForTests, type EshopFixture } from '@catalogue/testing';
import { createApp } from '../src/app';
import { buildDeps, closeDeps } from '../src/deps';
import { ORIGIN, wlRequest } from './editor-client';

export { BASE, ORIGIN, type Body, type Reply } from './editor-client';

export function contentService() {
  const service = serveServiceForTests({ buildDeps, createApp, closeDeps });

  // Status and body only: these tests compare whole replies.
  const client = (token: string) => async (method: string, path: string, body?: unknown) => {
    const { status, body: answer } = await wlRequest(service.url, token, method, path, body);
    return { status, body: answer };
  };

  /** The seeded catalogue widget of a type (`section`, `faq`, …). */
  async function widgetOf(type: string) {
    const widget = (await widgetTemplates(service.deps.db)).find((w) => w.type === type);
    if (!widget) throw new Error(`no seeded widget ${type}`);
    return widget;
  }

  async function shop(fixture: EshopFixture = {}) {
    const db = service.deps.db;
    const created = await makeEshop(db, { origins: [ORIGIN], ...fixture });
    const eshopId = created.eshop.id;
    const call = client(created.whiteLabelToken);
    return {
      id: eshopId,
      apiToken: created.apiToken,
      call,
      register: (entityId: string, type: WlEntityType = 'product', title: Record<string, string> = {}) =>
        wlEntitiesRepository.upsert(db, eshopId, { entityId, type, title, oldDescription: {} }),
      /** The stored content row (tree and every rendered output), or undefined. */
      stored: (entityId: string, type: WlEntityType = 'product') =>
        contentRepository.find(db, { eshopId, entityType: type, externalId: entityId }),
      /** Adds a catalogue widget through the API and answers the content widgets. */
      add: async (entityId: string, widgetType: string, extra: Record<string, unknown> = {}) => {
        const widget = await widgetOf(widgetType);
        const res = await call('POST', `/content/${entityId}/type/product`, {
          widget_id: widget.id,
          ...extra,
        });
        expect(res.status).toBe(200);
        return res.body as ContentWidget[];
      },
    };
  }

  return {
    get deps() {
      return service.deps;
    },
    get url() {
      return service.url;
    },
    shop,
    widgetOf,
  };
}

/** Every element id of a tree (to check they are unique within the entity). */
export function elementIds(tree: readonly ContentWidget[]): number[] {
  return tree.flatMap((w) => w.children.map((e) => e.id));
}

/** The element of a widget with a class, e.g. the section's `ccs-section__heading`. */
export function elementByClass(widget: ContentWidget, cls: string) {
  const element = widget.children.find((e) => e.class === cls);
  if (!element) throw new Error(`no element .${cls} in widget ${widget.id}`);
  return element;
}
