// File names made from names that come from the server (a dataset's name for its export): never a path (no
// separators, no `.` or `..`, no leading dot), never a device name Windows reserves (CON, NUL.txt, COM1, …), no
// control or text-direction characters (a name like "invoice\u202Efdp.exe" must not pose as another file type),
// and short enough for every file system (255 bytes with the extension). No `vscode` import: tested in plain Node.

/** The longest file name (in UTF-8 bytes) the common file systems take. */
export const MAX_FILE_NAME_BYTES = 255;

const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;

/**
 * C0 and C1 controls, bidirectional marks, embeddings, overrides and isolates, zero-width characters, the BOM, and
 * (seen one code point at a time) lone surrogates.
 */
export function isInvisible(codePoint: number): boolean {
  return (
    codePoint <= 0x1f ||
    (codePoint >= 0x7f && codePoint <= 0x9f) ||
    codePoint === 0x061c ||
    (codePoint >= 0x200b && codePoint <= 0x200f) ||
    (codePoint >= 0x202a && codePoint <= 0x202e) ||
    (codePoint >= 0x2060 && codePoint <= 0x2069) ||
    codePoint === 0xfeff ||
    (codePoint >= 0xd800 && codePoint <= 0xdfff)
  );
}

function withoutInvisible(text: string): string {
  return Array.from(text)
    .filter((ch) => !isInvisible(ch.codePointAt(0)!))
    .join('');
}

/**
 * `name` as a safe file name ending in `extension` (e.g. ".jsonl"); `fallback` stands in for a name with nothing
 * usable left, and prefixes a reserved one.
 */
export function safeFileName(name: string, extension: string, fallback = 'untitled'): string {
  let base = withoutInvisible(name.normalize('NFC'))
    .replace(/[\\/:*?"<>|]+/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    // No leading dots (hidden files, `.` and `..`); no trailing dots or spaces (Windows drops them).
    .replace(/^[.\s]+|[.\s]+$/g, '');
  if (!base) base = fallback;
  else if (RESERVED.test(base.split('.')[0]!.trim())) base = `${fallback}-${base}`;
  return `${truncateUtf8(base, MAX_FILE_NAME_BYTES - utf8Length(extension)).replace(/[.\s]+$/, '') || fallback}${extension}`;
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** The longest prefix of `text` (whole code points) that fits in `max` UTF-8 bytes. */
function truncateUtf8(text: string, max: number): string {
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const size = utf8Length(ch);
    if (bytes + size > max) break;
    bytes += size;
    end += ch.length;
  }
  return text.slice(0, end);
}
