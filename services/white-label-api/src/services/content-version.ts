/**
 * Optimistic concurrency of an entity's content: its version is served as the `ETag` of a
 * content read and of every content write's answer, and a write sent with `If-Match` is refused
 * (412 `content_version_mismatch`, nothing written) when the content has another version by the
 * time the write holds the content lock. Decisions: docs/decisions/0037-content-revisions.md, "Content revisions".
 */
import { ContentVersionMismatch } from '@catalogue/content-store';
import { HttpError } from '@catalogue/http';

/** The ETag of a content version: a strong tag of its number. */
export function etagOf(version: number): string {
  return `"${version}"`;
}

/**
 * The versions an `If-Match` header names: undefined when none is sent or `*` (any content).
 * A tag that is not one of ours (`"<version>"`, or weak `W/"<version>"`) names no version, so a
 * header of only such tags never matches.
 */
export function ifMatchVersions(header: string | undefined): number[] | undefined {
  const value = header?.trim();
  if (value === undefined || value === '' || value === '*') return undefined;
  return value
    .split(',')
    .map((tag) => /^(?:W\/)?"(\d{1,15})"$/.exec(tag.trim()))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => Number(match[1]));
}

/** 412: the content is not at the version the client read. */
export class ContentVersionMismatchError extends HttpError {
  constructor(current: number) {
    super(
      412,
      'content_version_mismatch',
      {
        error: 'The content was changed since it was read: read it again and retry.',
        current_etag: etagOf(current),
      },
      { ETag: etagOf(current) },
    );
  }
}

/** A content write whose If-Match did not hold answers 412 with the content's current ETag. */
export async function refuseStaleVersion<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (err instanceof ContentVersionMismatch) throw new ContentVersionMismatchError(err.current);
    throw err;
  }
}
