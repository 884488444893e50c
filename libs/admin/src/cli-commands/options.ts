// What the admin commands share: parsing of their words into the service's types, refused with
// an AdminError that names the flag or argument.
import {
  CONTENT_FALLBACKS,
  CONTENT_LANGUAGES,
  isOneOf,
  PUBLISH_MODES,
  type ContentFallback,
  type PublishMode,
} from '@catalogue/config';
import type { EshopInput } from '@catalogue/db';
import type { Command } from 'commander';
import { AdminError, parsePositiveInt, type AdminService } from '../admin.service';

export function onOff(value: string | undefined, flag: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new AdminError(`--${flag} takes on or off (got "${value}")`);
}

/** `fallback` or `omit` (what a page does with a text its language lacks). */
export function contentFallback(value: string): ContentFallback {
  if (!isOneOf(CONTENT_FALLBACKS, value)) {
    throw new AdminError(`--content-fallback takes ${CONTENT_FALLBACKS.join(' or ')} (got "${value}")`);
  }
  return value;
}

/** Whether the eshop's editor writes reach the storefront at once or wait as drafts. */
export function publishMode(value: string): PublishMode {
  if (!isOneOf(PUBLISH_MODES, value)) {
    throw new AdminError(`--publish-mode takes ${PUBLISH_MODES.join(' or ')} (got "${value}")`);
  }
  return value;
}

/** The language the eshop's `default` texts are written in, or `none` (not said: marked `und`). */
export function defaultLanguage(value: string): EshopInput['defaultLanguage'] {
  if (value === 'none') return null;
  const codes = CONTENT_LANGUAGES.filter((l) => l !== 'default');
  if (!isOneOf(codes, value)) {
    throw new AdminError(`--default-language takes one of ${codes.join(', ')} or none (got "${value}")`);
  }
  return value;
}

export function eshopName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (!name) throw new AdminError('--name is required and must not be empty');
  if (name.length > 200) throw new AdminError('--name must be at most 200 characters');
  return name;
}

/** The migration's check constraint allows up to this many requests per minute. */
export const MAX_RATE_LIMIT = 1_000_000;
export const MAX_REVISIONS_KEEP = 100_000;

export const eshopId = (value: string | undefined) => parsePositiveInt(value ?? '', 'ID');

export function oneOf<T extends string>(value: string, allowed: readonly T[], what: string): T {
  if (!isOneOf(allowed, value)) {
    throw new AdminError(`${what} must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value;
}

/** `--origin` may be given more than once. */
export const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** What a command's action answers: printed as JSON on stdout. */
export type Answer = (result: unknown) => void;

/** Adds one group of commands (`eshop …`, `token …`) to the program. */
export type CommandGroup = (program: Command, admin: () => AdminService, answer: Answer) => void;
