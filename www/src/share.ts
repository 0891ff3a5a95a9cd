// Share links, example links and the local draft. A share link carries the
// program in the URL's hash, deflated and base64url-encoded, with the run's
// settings beside it (`#code=...&mode=fused&chip=v6e&slice=2x2&ranks=4`,
// and the program's arguments as typed: `args=--steps%203`), so
// nothing is sent to a server; an example link names the example
// (`#example=mlp&mode=fused`). The draft is the editor's text in localStorage.
// Which link was last opened over the draft is remembered too, so that
// reloading a link after editing keeps the edits.

const DRAFT = "tpu-playground:draft";
const OPENED = "tpu-playground:opened-link";

/** The run settings a link carries; absent ones keep the page's defaults. */
export interface LinkSettings {
  mode?: string;
  chip?: string;
  slice?: string;
  /** How many ranks of torch.distributed the program runs as. */
  ranks?: string;
  /** The program's command-line arguments, as typed. */
  args?: string;
}

/** What the page's URL asks to open. */
export type Link =
  | ({ kind: "code"; source: string } & LinkSettings)
  | ({ kind: "example"; id: string } & LinkSettings);

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

function withSettings(params: URLSearchParams, settings: LinkSettings): string {
  for (const key of ["mode", "chip", "slice", "ranks", "args"] as const) {
    const value = settings[key];
    if (value) params.set(key, value);
  }
  const url = new URL(location.href);
  url.hash = params.toString();
  return url.toString();
}

/** The URL that opens the page with `source` in the editor and these settings. */
export async function shareUrl(source: string, settings: LinkSettings): Promise<string> {
  const packed = await pipe(new TextEncoder().encode(source), new CompressionStream("deflate-raw"));
  return withSettings(new URLSearchParams({ code: toBase64Url(packed) }), settings);
}

/** The URL of an example, with these settings. */
export function exampleUrl(id: string, settings: LinkSettings = {}): string {
  return withSettings(new URLSearchParams({ example: id }), settings);
}

/** What the page's URL hash asks to open, if anything readable. */
export async function openedLink(): Promise<Link | null> {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const settings: LinkSettings = {
    mode: params.get("mode") ?? undefined,
    chip: params.get("chip") ?? undefined,
    slice: params.get("slice") ?? undefined,
    ranks: params.get("ranks") ?? undefined,
    args: params.get("args") ?? undefined,
  };
  const example = params.get("example");
  if (example) return { kind: "example", id: example, ...settings };
  const code = params.get("code");
  if (!code || !/^[A-Za-z0-9_-]+$/.test(code)) return null;
  try {
    const bytes = await pipe(fromBase64Url(code), new DecompressionStream("deflate-raw"));
    return { kind: "code", source: new TextDecoder().decode(bytes), ...settings };
  } catch {
    return null;
  }
}

function get(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function set(key: string, value: string) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage may be unavailable (a private window); the draft is a convenience.
  }
}

export const loadDraft = () => get(DRAFT);
export const saveDraft = (source: string) => set(DRAFT, source);

/** Whether this exact link (hash) was already opened over the draft. */
export const alreadyOpened = (hash: string) => get(OPENED) === hash;
export const rememberOpened = (hash: string) => set(OPENED, hash);
