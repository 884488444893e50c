// The host's editor flow end to end, as a host application runs it against the white-label API:
// check the licence, register entities, read designs and a structure, fill a design, edit a
// widget, reorder, copy to another entity, generate with the builtin provider and poll the job
// until done — with the real generation worker and the credit-service settlement consumer — then
// see the credits charged exactly and the v2 catalogue list serve the new content. Every
// response of both APIs is checked against docs/openapi.yaml. A queue prefix of its own keeps
// other test files' jobs away from these workers.
import { creditsRepository, generationJobsRepository, type Knex } from '@catalogue/db';
import { eventually, makeEshop } from '@catalogue/testing';

import { shopCallers, useFullStack } from './full-stack';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-wl-flow`;
const ORIGIN = 'https://admin.flow.test';
const CREDITS = 200;

async function ledgerSums(db: Knex, eshopId: number) {
  return db('credit_ledger')
    .where({ eshop_id: eshopId })
    .first<{ amount: number; reserved: number }>(
      db.raw('coalesce(sum(amount), 0)::int as amount'),
      db.raw('coalesce(sum(reserved_delta), 0)::int as reserved'),
    );
}

describe('white-label host flow: editor -> generation -> credits -> v2 list', () => {
  const { wl, catalogue } = useFullStack(PREFIX);

  test('when a host runs the whole editor flow, then the generated content is charged exactly and listed by the v2 API', async () => {
    const db = wl.deps.db;
    const shop = await makeEshop(db, {
      origins: [ORIGIN],
      languages: ['default', 'cs', 'en'],
      credits: CREDITS,
    });
    const eshopId = shop.eshop.id;
    const { host, backOffice } = shopCallers({ wl: wl.url, catalogue: catalogue.url }, shop, ORIGIN);

    // The eshop's catalogue has the two products; the worker renders them ready.
    const imported = await backOffice('POST', '/api/v2/rest/products', [
      { id: 'P1', name: { default: 'Trail shoe', cs: 'Trailová bota' } },
      { id: 'P2', name: { default: 'Road shoe', cs: 'Silniční bota' } },
    ]);
    expect(imported.body).toMatchObject({ success: true, imported: 2 });
    await eventually(async () => {
      const listed = await backOffice('GET', '/api/v2/rest/products');
      expect(listed.body.data.map((p) => p.id)).toEqual(['P1', 'P2']);
    }, 15_000);

    // 1. Licence.
    expect((await host('POST', '/check-license')).body).toEqual({
      data: {
        eshop_id: eshopId,
        has_valid_license: true,
        languages: ['default', 'cs', 'en'],
        default_language: null,
      },
    });

    // 2. Register both entities.
    for (const [id, title] of [
      ['P1', 'Trail shoe'],
      ['P2', 'Road shoe'],
    ]) {
      const registered = await host('POST', '/register-entity', { entity_id: id, type: 'product', title });
      expect(registered.status).toBe(201);
    }

    // 3. Designs and the structure of one.
    const designs = await host('GET', '/design?type=product');
    const design = designs.body.data.find((d) => d.name && d.category === 'product')!;
    expect(design).toBeDefined();
    const structure = await host('GET', `/design/${design.id}/structure`);
    expect(structure.status).toBe(200);
    const section = structure.body.widget.find((w) => w.fillable && w.type === 'section')!;
    const benefit = structure.body.widget.find((w) => w.fillable && w.type === 'benefit')!;
    expect(section && benefit).toBeTruthy();

    // 4. Fill the design with the host's own texts (no credits).
    const filled = await host('POST', `/entity/P1/type/product/design`, {
      design_id: design.id,
      widget: [
        {
          design_widget_id: section.design_widget_id,
          fields: {
            heading: { default: 'Built for trails', cs: 'Do terénu' },
            paragraph: '<p>Grippy sole.</p>',
          },
        },
        {
          design_widget_id: benefit.design_widget_id,
          items: [{ benefit_title: 'Light', benefit_text: '280 g per shoe' }],
        },
      ],
    });
    expect(filled.status).toBe(200);
    expect(filled.body.widget_created).toBe(2);
    expect(filled.body.html.cs).toContain('Do terénu');

    // 5. Edit a widget: the section heading in Czech.
    const read = await host('GET', '/content/P1/type/product');
    const sectionWidget = read.body.find((w) => w.html.includes('Built for trails'))!;
    const heading = sectionWidget.children.find((e) => e.value?.cs === 'Do terénu')!;
    const edited = await host('PUT', '/content/P1/type/product?lang=cs', {
      [sectionWidget.id]: { children: [{ id: heading.id, value: { cs: 'Na horské stezky' } }] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.find((w) => w.id === sectionWidget.id)?.html).toContain('Na horské stezky');

    // 6. Reorder: benefit first.
    const ids = edited.body.map((w) => w.id);
    const reordered = await host('POST', '/content/P1/type/product', { ord: [...ids].reverse() });
    expect(reordered.status).toBe(200);
    expect(reordered.body.map((w) => w.id)).toEqual([...ids].reverse());

    // 7. Copy the widgets to the other product.
    const copied = await host('POST', '/content/copy-widget', {
      source_entity_id: 'P1',
      target_entity_id: 'P2',
      type: 'product',
    });
    expect(copied.status).toBe(200);
    expect(copied.body).toHaveLength(2);

    // 8. Generate with the builtin provider: credits shown, job started, polled until done.
    expect((await host('GET', '/credit')).body).toEqual({ data: { remaining: CREDITS } });
    const started = await host('POST', '/content/P1/type/product/generate', {
      design_id: design.id,
      lang: 'cs',
      name: 'Trailová bota Runner',
      short_description: 'Lehká bota do terénu s přilnavou podrážkou.',
      parameter: 'Hmotnost: 280 g\nDrop: 6 mm',
      remove_exist_widget: false,
    });
    expect(started.status).toBe(200);
    expect(started.body.data).toMatchObject({ status: 'pending', widgets_created: 0, lang: 'cs' });
    const jobId: number = started.body.data.id;
    const estimate = (await generationJobsRepository.find(db, eshopId, jobId))!.estimatedCost;
    expect((await host('GET', '/credit')).body).toEqual({ data: { remaining: CREDITS - estimate } });

    const readJob = async () => (await host('GET', `/generate/${jobId}`)).body.data;
    let job: Awaited<ReturnType<typeof readJob>> | undefined;
    await eventually(async () => {
      job = await readJob();
      expect(job.status).toBe('done');
    }, 20_000);
    if (!job) throw new Error('the job was never read');
    expect(job.widgets_created).toBeGreaterThan(0);
    expect(job.error_message).toBeNull();
    expect((await host('GET', '/content/P1/type/product/generate')).status).toBe(404);

    // 9. Settled: remaining reduced by exactly the charged cost, the ledger balanced.
    const charged = (await generationJobsRepository.find(db, eshopId, jobId))!.chargedCost!;
    expect(charged).toBeGreaterThan(0);
    expect(charged).toBeLessThanOrEqual(estimate);
    await eventually(async () => {
      expect((await host('GET', '/credit')).body).toEqual({ data: { remaining: CREDITS - charged } });
    }, 15_000);
    const account = await creditsRepository.getAccount(db, eshopId);
    expect(account).toEqual({
      eshopId,
      balance: CREDITS - charged,
      reserved: 0,
      remaining: CREDITS - charged,
    });
    expect(await ledgerSums(db, eshopId)).toEqual({ amount: account.balance, reserved: 0 });
    const jobLedger = await db('credit_ledger')
      .where({ eshop_id: eshopId, job_id: jobId })
      .orderBy('id')
      .select('kind', 'amount', 'reserved_delta');
    expect(jobLedger[0]).toEqual({ kind: 'reservation', amount: 0, reserved_delta: estimate });
    expect(jobLedger.find((r) => r.kind === 'charge')).toEqual({
      kind: 'charge',
      amount: -charged,
      reserved_delta: -charged,
    });

    // 10. The editor re-reads the content: the host's widgets kept, the generated ones appended.
    const after = await host('GET', '/content/P1/type/product?lang=cs');
    expect(after.body).toHaveLength(2 + job.widgets_created);
    expect(after.body.slice(0, 2).map((w) => w.id)).toEqual([...ids].reverse());

    // 11. The back office lists the new content for both products.
    const listed = await backOffice('GET', '/api/v2/rest/products?lang=all&include=marketplace');
    const p1 = listed.body.data[0]!;
    const p2 = listed.body.data[1]!;
    expect(p1.id).toBe('P1');
    expect(p1.content.html.cs).toContain('Na horské stezky');
    expect(p1.content.html.cs).toContain('280 g per shoe');
    expect(p1.content.html.cs).toContain('Trailová bota Runner');
    expect(p1.content.html.cs).toBe(after.body.map((w) => w.html).join(''));
    expect(p1.content.marketplace?.cs).toContain('Na horské stezky');
    expect(p2.id).toBe('P2');
    expect(p2.content.html.cs).toContain('Na horské stezky');
    expect(p2.content.html.cs).not.toContain('Trailová bota Runner');
  }, 90_000);
});
