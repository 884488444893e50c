// GET /editor/v1/origin: the one answer a page whose origin no eshop allows can read, so the
// editor tells "this page is not allowed" from "the service cannot be reached".
import { expectMatchesContract, makeEshop } from '@catalogue/testing';
import { editorService } from './editor-client';

describe('GET /editor/v1/origin', () => {
  const service = editorService();

  const probe = async (origin?: string) => {
    const res = await fetch(`${service.url}/editor/v1/origin`, { headers: origin ? { Origin: origin } : {} });
    const body: unknown = await res.json();
    expectMatchesContract('GET', '/editor/v1/origin', res.status, body, res.headers.get('content-type'));
    return { res, body };
  };

  test('when the page origin is one some eshop allows, then allowed, readable from that page', async () => {
    await makeEshop(service.deps.db, { origins: ['http://127.0.0.1:5173'] });
    const { res, body } = await probe('http://127.0.0.1:5173');
    expect(res.status).toBe(200);
    expect(body).toEqual({ origin: 'http://127.0.0.1:5173', allowed: true });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  test('when the page is on localhost but the eshop allows 127.0.0.1, then not allowed, and the answer is still readable', async () => {
    await makeEshop(service.deps.db, { origins: ['http://127.0.0.1:5174'] });
    const { res, body } = await probe('http://localhost:5174');
    expect(res.status).toBe(200);
    expect(body).toEqual({ origin: 'http://localhost:5174', allowed: false });
    // Readable: a page of any origin gets the answer, and it names no eshop.
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('when the request has no Origin or a malformed one, then not allowed with origin null', async () => {
    expect((await probe()).body).toEqual({ origin: null, allowed: false });
    expect((await probe('javascript:alert(1)')).body).toEqual({ origin: null, allowed: false });
  });
});
