import { randomBytes } from 'node:crypto';

export interface MultipartPart {
  name: string;
  /** Full content type, e.g. `application/json; length=42`. */
  contentType: string;
  data: string | Uint8Array;
}

const encoder = new TextEncoder();

function headerValue(name: string): string {
  return name.replace(/"/g, '%22').replace(/\r|\n/g, ' ');
}

/**
 * One contiguous multipart/form-data body: one buffer, one write, rather than a stream of small
 * chunks. Every part carries a filename, as browsers and Node's FormData do for blobs, so servers
 * read each part as bytes rather than as a text field.
 */
export function encodeMultipart(parts: readonly MultipartPart[]): { body: Uint8Array; contentType: string } {
  const boundary = `----lsw${randomBytes(12).toString('hex')}`;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const push = (c: Uint8Array) => {
    chunks.push(c);
    size += c.byteLength;
  };
  for (const part of parts) {
    push(
      encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="${headerValue(part.name)}"; filename="blob"\r\n` +
          `Content-Type: ${part.contentType}\r\n\r\n`,
      ),
    );
    push(typeof part.data === 'string' ? encoder.encode(part.data) : part.data);
    push(encoder.encode('\r\n'));
  }
  push(encoder.encode(`--${boundary}--\r\n`));
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.byteLength;
  }
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A JSON part with the `length=N` parameter LangSmith's ingest endpoints expect. */
export function jsonPart(name: string, value: unknown): MultipartPart {
  const data = encoder.encode(JSON.stringify(value));
  return { name, contentType: `application/json; length=${data.byteLength}`, data };
}

export function bytesPart(name: string, mimeType: string, data: Uint8Array): MultipartPart {
  return { name, contentType: `${mimeType}; length=${data.byteLength}`, data };
}
