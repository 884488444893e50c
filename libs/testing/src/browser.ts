import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/**
 * Debian's chromium (`apt-get install -y chromium`; `.ci/run` installs it when missing), or
 * the browser named by CHROMIUM_PATH. Playwright's own browser downloads are not used: they
 * come from a host this project cannot reach.
 */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path))
    throw new Error(`no Chromium at ${path}: run 'apt-get install -y chromium' or set CHROMIUM_PATH`);
  return path;
}

/**
 * A headless Chromium for a browser test; the caller closes it in afterAll. playwright-core is
 * loaded here, not at import, so test files without a browser do not pay for it. `args`: more
 * Chromium switches (e.g. `--host-resolver-rules` to reach test host names on loopback).
 */
export async function launchBrowser(args: string[] = []): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  // A launch on a loaded machine (two test workers starting Chromium at once) has been seen to
  // lose the browser right after it started ("Target page, context or browser has been closed"
  // from launch, failing a whole file in CI): a fresh launch is tried before giving up.
  for (let attempt = 1; ; attempt++) {
    try {
      return await chromium.launch({
        executablePath: chromiumPath(),
        headless: true,
        args,
        // Not Playwright's signal handlers: a test worker that Jest stops ends at once instead of
        // closing the browser under the test it is running.
        handleSIGTERM: false,
        handleSIGHUP: false,
        handleSIGINT: false,
      });
    } catch (err) {
      if (attempt >= LAUNCH_ATTEMPTS) throw err;
      process.stderr.write(
        `chromium launch ${attempt} failed, trying again: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}\n`,
      );
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

/** Launches tried before a browser test gives up. */
const LAUNCH_ATTEMPTS = 3;
