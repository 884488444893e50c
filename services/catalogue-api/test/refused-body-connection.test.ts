// An import over the body limit, sent chunked on a keep-alive connection, is refused with 413 and
// the client's next request on the same connection is answered at once (it used to hang until the
// keep-alive timeout and then be reset).
import { connect } from 'node:net';
import { eventually } from '@catalogue/testing';
import { catalogueService } from './helpers';

describe('catalogue-api: a refused import leaves its connection usable', () => {
  const svc = catalogueService({ HTTP_IMPORT_BODY_LIMIT: '64kb' });

  test('when a chunked import goes past the body limit, then it gets 413 and the next request on the same socket gets its answer', async () => {
    // Arrange: 2 MiB chunked to an import limited to 64 KiB.
    const { apiToken } = await svc.eshop();
    const port = Number(new URL(svc.url).port);
    const chunk = `[${'{"id":"X"},'.repeat(6_000)}`.slice(0, 64 * 1024);
    let body = '';
    for (let i = 0; i < 32; i++) body += `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
    body += '0\r\n\r\n';
    const auth = `Authorization: Bearer ${apiToken}\r\n`;
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => (text += data));
    const statuses = () => [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
    const until = (count: number) =>
      eventually(() => expect(statuses().length).toBeGreaterThanOrEqual(count));

    // Act
    socket.write(
      `POST /api/v2/rest/products HTTP/1.1\r\nHost: localhost\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${body}`,
    );
    await until(1);
    const sent = Date.now();
    socket.write(`GET /api/v2/rest/whoami HTTP/1.1\r\nHost: localhost\r\n${auth}\r\n`);
    await until(2);
    socket.destroy();

    // Assert
    expect(statuses()).toEqual([413, 200]);
    expect(text).not.toMatch(/connection: close/i);
    expect(Date.now() - sent).toBeLessThan(3_000);
  });
});
