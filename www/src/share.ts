// Share links and the local draft. A link carries the program in the URL's
// hash, deflated and base64url-encoded (`#code=...`), so nothing is sent to a
// server; the draft is the editor's text in localStorage.

const DRAFT = "tpu-playground:draft";

function toBase64Url(bytes: Uint8Array): string {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array {
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(plain, (c) => c.charCodeAt(0));
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Blob([bytes as BlobPart]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

/** The URL that opens the page with `source` in the editor. */
export async function shareUrl(source: string): Promise<string> {
  const packed = await pipe(new TextEncoder().encode(source), new CompressionStream("deflate-raw"));
  const url = new URL(location.href);
  url.hash = `code=${toBase64Url(packed)}`;
  return url.toString();
}

/** The program a share link carries, if the page was opened with one. */
export async function sharedProgram(): Promise<string | null> {
  const match = location.hash.match(/^#code=([A-Za-z0-9_-]+)$/);
  if (!match) return null;
  try {
    const bytes = await pipe(fromBase64Url(match[1]), new DecompressionStream("deflate-raw"));
    return new TextDecoder().decode(bytes);
  } catch {
    return null;
  }
}

export function loadDraft(): string | null {
  try {
    return localStorage.getItem(DRAFT);
  } catch {
    return null;
  }
}

export function saveDraft(source: string) {
  try {
    localStorage.setItem(DRAFT, source);
  } catch {
    // Storage may be unavailable (a private window); the draft is a convenience.
  }
}
