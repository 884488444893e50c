import { boundHeap, CATALOGUE_API_HEAP_FLAGS, IMAGE_HEAP_FLAGS, missingHeapFlags } from '../src/heap-bounds';

const BOTH = ['--max-old-space-size=256', '--max-semi-space-size=32'];

describe('missingHeapFlags', () => {
  test('when nothing sets them, then both image flags are missing', () => {
    expect(missingHeapFlags(IMAGE_HEAP_FLAGS, [], undefined)).toEqual(BOTH);
    expect(missingHeapFlags(IMAGE_HEAP_FLAGS, ['--enable-source-maps'], '')).toEqual(BOTH);
  });

  test('when NODE_OPTIONS or the command line sets one, then that one stays as given', () => {
    expect(missingHeapFlags(IMAGE_HEAP_FLAGS, [], '--max-old-space-size=384')).toEqual([
      '--max-semi-space-size=32',
    ]);
    expect(missingHeapFlags(IMAGE_HEAP_FLAGS, ['--max_semi_space_size=8'], undefined)).toEqual([
      '--max-old-space-size=256',
    ]);
    expect(
      missingHeapFlags(IMAGE_HEAP_FLAGS, [], '--max-semi-space-size=32 --max-old-space-size=256'),
    ).toEqual([]);
  });

  test('the bounds are the image’s NODE_OPTIONS', async () => {
    const { readFile } = await import('node:fs/promises');
    const dockerfile = await readFile(`${__dirname}/../../../docker/Dockerfile`, 'utf8');
    const image = /^ENV NODE_OPTIONS="([^"]*)"$/m.exec(dockerfile)?.[1]?.split(' ');
    expect(image?.sort()).toEqual(
      Object.entries(IMAGE_HEAP_FLAGS)
        .map(([f, v]) => `${f}=${v}`)
        .sort(),
    );
  });
});

describe('boundHeap', () => {
  const started = (execArgv: string[], env: NodeJS.ProcessEnv, execve?: jest.Mock<never>) => ({
    execArgv,
    argv: ['/usr/bin/node', '/app/services/generation-worker/dist/main.js', '--x'],
    env,
    execPath: '/usr/bin/node',
    ...(execve && { execve }),
  });

  test('when started without the flags, then it replaces itself with the same command plus them', () => {
    const execve = jest.fn<never, unknown[]>();
    const env = { DATABASE_URL: 'postgres://db' };
    boundHeap('generation-worker', IMAGE_HEAP_FLAGS, started(['--cpu-prof'], env, execve), () => undefined);
    expect(execve).toHaveBeenCalledWith(
      '/usr/bin/node',
      ['/usr/bin/node', ...BOTH, '--cpu-prof', '/app/services/generation-worker/dist/main.js', '--x'],
      env,
    );
  });

  test('when started with both flags, then it goes on as it is', () => {
    const execve = jest.fn<never, unknown[]>();
    boundHeap(
      'generation-worker',
      IMAGE_HEAP_FLAGS,
      started([], { NODE_OPTIONS: BOTH.join(' ') }, execve),
      () => undefined,
    );
    boundHeap('generation-worker', IMAGE_HEAP_FLAGS, started(BOTH, {}, execve), () => undefined);
    expect(execve).not.toHaveBeenCalled();
  });

  test('when the catalogue API starts with the image’s NODE_OPTIONS, then it adds its young generation and the old generation’s floor', () => {
    const execve = jest.fn<never, unknown[]>();
    const env = { NODE_OPTIONS: BOTH.join(' ') };
    boundHeap('catalogue-api', CATALOGUE_API_HEAP_FLAGS, started([], env, execve), () => undefined);
    // On the command line, which wins over the image's --max-semi-space-size=32 in NODE_OPTIONS.
    expect(execve).toHaveBeenCalledWith(
      '/usr/bin/node',
      [
        '/usr/bin/node',
        '--max-semi-space-size=16',
        '--initial-old-space-size=128',
        '/app/services/generation-worker/dist/main.js',
        '--x',
      ],
      env,
    );
    // Given on the command line (the restarted process, or a deployment's own values): it goes on.
    const again = jest.fn<never, unknown[]>();
    boundHeap(
      'catalogue-api',
      CATALOGUE_API_HEAP_FLAGS,
      started(['--max-semi-space-size=16', '--initial-old-space-size=96'], env, again),
      () => undefined,
    );
    expect(again).not.toHaveBeenCalled();
  });

  test('when a deployment’s NODE_OPTIONS names another young generation than the image’s, then the catalogue API keeps it', () => {
    expect(
      missingHeapFlags(CATALOGUE_API_HEAP_FLAGS, [], '--max-semi-space-size=64 --max-old-space-size=512'),
    ).toEqual(['--initial-old-space-size=128']);
    // The image's value of a flag the service does not set otherwise stays given.
    expect(missingHeapFlags(IMAGE_HEAP_FLAGS, [], BOTH.join(' '))).toEqual([]);
  });

  test('when the runtime has no process.execve, then it says so and goes on', () => {
    const lines: string[] = [];
    boundHeap('generation-worker', IMAGE_HEAP_FLAGS, started([], {}), (line) => lines.push(line));
    expect(lines.join('')).toMatch(
      /cannot restart itself with --max-old-space-size=256 --max-semi-space-size=32/,
    );
  });
});
