import { editorService, EXPIRED, LICENCE_ERROR } from './editor-client';

describe('white-label-api: GET /prompt', () => {
  const service = editorService();
  const db = () => service.deps.db;

  const insertPrompt = async (eshopId: number | null, name: string, position = 0) =>
    (
      await db()('prompts')
        .insert({
          eshop_id: eshopId,
          name,
          prompt: `Write about ${name}`,
          use_web_research: true,
          search_web: JSON.stringify(['https://docs.test/a']),
          search_model: JSON.stringify(['m1']),
          position,
        })
        .returning<{ id: number }[]>('id')
    )[0]!.id;

  test("when the eshop has prompts of its own, then it sees the global ones and its own, never another eshop's", async () => {
    const shop = await service.shop();
    const other = await service.shop();
    const own = await insertPrompt(shop.id, 'Own prompt', 1_000);
    const theirs = await insertPrompt(other.id, 'Their prompt', 1_000);
    const res = await shop.get('/prompt');
    expect(res.status).toBe(200);
    const ids = res.body.data.map((p: { id: number }) => p.id);
    const global = await db()('prompts').whereNull('eshop_id').orderBy(['position', 'id']).pluck('id');
    expect(global.length).toBeGreaterThan(0);
    expect(ids).toEqual([...global, own]);
    expect(ids).not.toContain(theirs);
    expect(res.body.data.at(-1)).toEqual({
      id: own,
      name: 'Own prompt',
      prompt: 'Write about Own prompt',
      remove_exist_widget: false,
      use_serp_context: false,
      use_web_research: true,
      search_web: ['https://docs.test/a'],
      search_model: ['m1'],
    });
    const theirList = (await other.get('/prompt')).body.data.map((p: { id: number }) => p.id);
    expect(theirList).toContain(theirs);
    expect(theirList).not.toContain(own);
  });

  test('when the licence is not valid, then 403', async () => {
    const shop = await service.shop(EXPIRED);
    const res = await shop.get('/prompt');
    expect(res.status).toBe(403);
    expect(res.body).toEqual(LICENCE_ERROR);
  });
});
