// Shared arrangement of the content-operation tests: the service in-process, eshops with a
// white-label client whose every response is checked against docs/openapi.yaml, registered
// entities, and readers of what is stored.
import { widgetTemplates } from '@catalogue/content-store';
import { contentRepository, wlEntitiesRepository, type WlEntityType } from '@catalogue/db';
import { makeEshop, serveServiceForTests, type EshopFixture, type Method } from '@catalogue/testing';
import { whiteLabelApi } from '../src/service';
import { ORIGIN, wlCaller } from './editor-client';

export { BASE, ORIGIN, type Reply } from './editor-client';

export function contentService() {
  const service = serveServiceForTests(whiteLabelApi);

  // Status and body only: these tests compare whole replies.
  const client = (token: string) => {
    const wl = wlCaller(() => service.url, token);
    return async <M extends Method, P extends string>(method: M, path: P, body?: unknown) => {
      const { status, body: answer } = await wl(method, path, body);
      return { status, body: answer };
    };
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
        return res.body;
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
export function elementIds(tree: readonly ({ children: readonly { id: number }[] } | undefined)[]): number[] {
  return tree.flatMap((w) => {
    if (!w) throw new Error('no widget');
    return w.children.map((e) => e.id);
  });
}

/** The element of a widget with a class, e.g. the section's `ccs-section__heading`. */
export function elementByClass<E extends { class?: string | null }>(
  widget: { id: number; children: readonly E[] } | undefined,
  cls: string,
): E {
  if (!widget) throw new Error(`no widget to find .${cls} in`);
  const element = widget.children.find((e) => e.class === cls);
  if (!element) throw new Error(`no element .${cls} in widget ${widget.id}`);
  return element;
}
