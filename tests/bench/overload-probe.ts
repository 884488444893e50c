// bench:overload's new client, in a process of its own (forked by overload.bench.ts): one GET
// every 100 ms on a fresh connection beside the load, each answer's status, time and
// Retry-After sent to the parent. In the bench's process these times would include its own
// event loop's delay behind autocannon's thousand connections, which no client of the service
// meets. On the parent's `stop` it sends no more, waits for the answers still coming (at most
// 10 s) and sends `done`.
import { get } from 'node:http';

export interface ProbeAnswer {
  status: number;
  ms: number;
  retryAfter: boolean;
}

const [url, token] = process.argv.slice(2);
if (!url || !token || !process.send) throw new Error('usage: fork overload-probe.js <url> <token>');
const send = (message: unknown) => process.send!(message);

let pending = 0;
const probe = setInterval(() => {
  const started = performance.now();
  pending += 1;
  get(url, { agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
    res.resume();
    res.on('end', () => {
      pending -= 1;
      const answer: ProbeAnswer = {
        status: res.statusCode ?? 0,
        ms: performance.now() - started,
        retryAfter: Boolean(res.headers['retry-after']),
      };
      send(answer);
    });
  }).on('error', () => {
    pending -= 1;
  });
}, 100);

process.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(probe);
  const until = Date.now() + 10_000;
  const wait = setInterval(() => {
    if (pending > 0 && Date.now() < until) return;
    clearInterval(wait);
    send('done');
    process.disconnect();
  }, 50);
});
