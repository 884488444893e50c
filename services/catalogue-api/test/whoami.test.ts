import { adminService, runCli } from '@catalogue/admin';
import { serveServiceForTests } from '@catalogue/testing';
import { catalogueApi } from '../src/service';

describe('catalogue-api: GET /api/v2/rest/whoami', () => {
  const service = serveServiceForTests(catalogueApi);

  async function createEshopWithCli(): Promise<{ id: number; api_token: string }> {
    let out = '';
    const code = await runCli(
      ['eshop', 'create', '--name', 'Whoami shop'],
      () => adminService(service.deps.db),
      {
        out: (text) => (out += text),
        err: () => undefined,
      },
    );
    expect(code).toBe(0);
    return JSON.parse(out) as { id: number; api_token: string };
  }

  test('when an eshop made by the admin CLI calls with its API token, then 200 names that eshop', async () => {
    const eshop = await createEshopWithCli();
    const res = await fetch(`${service.url}/api/v2/rest/whoami`, {
      headers: { Authorization: `Bearer ${eshop.api_token}`, Accept: 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { eshop_id: eshop.id } });
  });

  test('when the token is wrong, then 401 with the specification body', async () => {
    const eshop = await createEshopWithCli();
    const res = await fetch(`${service.url}/api/v2/rest/whoami`, {
      headers: { Authorization: `Bearer ${eshop.api_token}x` },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Authorization token required', code: 'token_invalid' });
  });
});
