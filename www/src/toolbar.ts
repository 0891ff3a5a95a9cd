// The controls that hold the page's settings rather than a run: the eager
// mode and time limit in the toolbar (the time limit kept between visits),
// the theme and the keyboard shortcuts in the header, and the notice bar
// under the toolbar that offers the way back after the program was replaced.
// Their state is the controls' own values; this class is their one owner.
import type { EagerMode } from "tpu-playground/report";
import { $, el } from "./dom";
import { SHORTCUTS } from "./editor";
import { remember, remembered } from "./settings";

const THEMES = ["system", "light", "dark"] as const;
type Theme = (typeof THEMES)[number];
const MODES: readonly string[] = ["strict", "debug", "fused"];

export class Toolbar {
  private readonly modeSelect = $<HTMLSelectElement>("#mode");
  private readonly timeoutSelect = $<HTMLSelectElement>("#timeout");
  private readonly argsInput = $<HTMLInputElement>("#args");
  private readonly themeButton = $<HTMLButtonElement>("#theme");
  private readonly notice = $<HTMLElement>("#notice");

  constructor() {
    this.timeoutSelect.value = remembered("timeout", ["5000", "30000", "120000", "600000", "0"], "120000");
    this.timeoutSelect.addEventListener("change", () => remember("timeout", this.timeoutSelect.value));

    $("#notice-close").addEventListener("click", () => {
      this.notice.hidden = true;
    });

    const keysHelp = $<HTMLDialogElement>("#keys-help");
    $("#keys-table tbody").append(
      ...SHORTCUTS.map(([keys, what]) =>
        el(
          "tr",
          {},
          el("td", {}, ...keys.split(" / ").flatMap((key, i) => [i ? " / " : "", el("kbd", { textContent: key })])),
          el("td", { textContent: what }),
        ),
      ),
    );
    $("#keys").addEventListener("click", () => keysHelp.showModal());

    this.themeButton.addEventListener("click", () => {
      const now = (document.documentElement.dataset.theme ?? "system") as Theme;
      this.applyTheme(THEMES[(THEMES.indexOf(now) + 1) % THEMES.length]);
    });
    this.applyTheme(remembered("theme", THEMES, "system"));
  }

  /** The eager mode the Run button runs in. */
  get mode(): EagerMode {
    return this.modeSelect.value as EagerMode;
  }

  /** Chooses the eager mode, if `mode` names one (a link's may not). */
  set mode(mode: string) {
    if (MODES.includes(mode)) this.modeSelect.value = mode;
  }

  /** The time limit of a run, or null for none. */
  get timeLimitMs(): number | null {
    const limit = Number(this.timeoutSelect.value);
    return limit > 0 ? limit : null;
  }

  /** The arguments as typed (a share link keeps them so). */
  get args(): string {
    return this.argsInput.value;
  }

  set args(text: string) {
    this.argsInput.value = text;
  }

  /** The program's `sys.argv[1:]`: the arguments split as a shell splits them. */
  get argv(): string[] {
    return splitArguments(this.argsInput.value);
  }

  /** Says `text` in the notice bar, with a button that does `act`. */
  showNotice(text: string, action: string, act: () => void) {
    $("#notice-text").textContent = text;
    const button = $<HTMLButtonElement>("#notice-action");
    button.textContent = action;
    button.onclick = () => {
      act();
      this.notice.hidden = true;
    };
    this.notice.hidden = false;
  }

  private applyTheme(theme: Theme) {
    if (theme === "system") delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
    this.themeButton.textContent = `theme: ${theme}`;
    remember("theme", theme);
  }
}

/**
 * Splits a command line's arguments as a POSIX shell does for plain words:
 * on spaces, with '...' kept as it is, "..." kept with \" and \\ escaped,
 * and a backslash outside quotes keeping the next character.
 */
export function splitArguments(text: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      word += end < 0 ? text.slice(i + 1) : text.slice(i + 1, end);
      i = end < 0 ? text.length : end;
      inWord = true;
    } else if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === "\\" && (text[i + 1] === '"' || text[i + 1] === "\\")) i++;
        word += text[i];
      }
      inWord = true;
    } else if (c === "\\" && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}
