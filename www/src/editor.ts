// The page's CodeMirror editor: Python with 4-space indentation (as Python and
// the examples use), Tab to indent, the page's keys (run, stop), the line a
// running program is on highlighted, and the run's errors and Debug mode's
// first non-finite result marked at their lines (CodeMirror's lint
// diagnostics: underlined, with the message on hover).
import { EditorView, basicSetup } from "codemirror";
import { Decoration, type DecorationSet, keymap } from "@codemirror/view";
import { EditorState, Prec, StateEffect, StateField } from "@codemirror/state";
import { HighlightStyle, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { tags } from "@lezer/highlight";
import { indentWithTab } from "@codemirror/commands";
import { type Diagnostic as LintDiagnostic, setDiagnostics } from "@codemirror/lint";
import { python } from "@codemirror/lang-python";

/**
 * The editor's colours, from the page's own (style.css): each is a
 * `light-dark()` pair chosen to reach WCAG AA contrast (4.5:1) on the
 * editor's background in its theme, so the theme toggle recolours the
 * gutter, the active line and the tokens with the rest of the page.
 */
const pageTheme = EditorView.theme({
  "&": { color: "var(--fg)", backgroundColor: "var(--bg)" },
  ".cm-content": { caretColor: "var(--fg)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--fg)" },
  ".cm-gutters": { backgroundColor: "var(--panel)", color: "var(--muted)", borderRight: "1px solid var(--border)" },
  ".cm-activeLine": { backgroundColor: "var(--active-line)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--active-line)", color: "var(--fg)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection": {
    backgroundColor: "var(--selection)",
  },
  ".cm-tooltip": { backgroundColor: "var(--panel)", color: "var(--fg)", border: "1px solid var(--border)" },
  ".cm-panels": { backgroundColor: "var(--panel)", color: "var(--fg)" },
});

const pageHighlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.definitionKeyword, tags.moduleKeyword, tags.operatorKeyword], color: "var(--tok-keyword)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--tok-string)" },
  { tag: [tags.number, tags.bool, tags.null], color: "var(--tok-number)" },
  { tag: tags.lineComment, color: "var(--tok-comment)", fontStyle: "italic" },
  { tag: [tags.function(tags.definition(tags.variableName)), tags.function(tags.variableName), tags.function(tags.propertyName)], color: "var(--tok-function)" },
  { tag: tags.definition(tags.className), color: "var(--tok-class)" },
  { tag: [tags.meta, tags.escape, tags.modifier], color: "var(--tok-meta)" },
]);

/** Sets (or with null clears) the line the running program is on. */
const setRunningLine = StateEffect.define<number | null>();

const runningLine = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(decorations, tr) {
    decorations = decorations.map(tr.changes);
    for (const effect of tr.effects) {
      if (!effect.is(setRunningLine)) continue;
      const line = effect.value;
      if (line === null || line < 1 || line > tr.state.doc.lines) {
        decorations = Decoration.none;
      } else {
        const from = tr.state.doc.line(line).from;
        decorations = Decoration.set([Decoration.line({ class: "cm-running-line" }).range(from)]);
      }
    }
    return decorations;
  },
  provide: (field) => EditorView.decorations.from(field),
});

export interface EditorKeys {
  run(): void;
  /** Stops a run in flight; false when none is (Escape then does its usual). */
  stop(): boolean;
  changed(source: string): void;
}

export function createEditor(parent: HTMLElement, doc: string, keys: EditorKeys): EditorView {
  return new EditorView({
    doc,
    parent,
    extensions: [
      Prec.highest(
        keymap.of([
          { key: "Mod-Enter", run: () => { keys.run(); return true; } },
          { key: "Escape", run: () => keys.stop() },
        ]),
      ),
      basicSetup,
      keymap.of([indentWithTab]),
      indentUnit.of("    "),
      EditorState.tabSize.of(4),
      python(),
      pageTheme,
      syntaxHighlighting(pageHighlight),
      runningLine,
      EditorView.updateListener.of((update) => {
        if (update.docChanged) keys.changed(update.state.doc.toString());
      }),
    ],
  });
}

/** Replaces the program as one undoable change: Ctrl+Z brings back the text before. */
export function replaceProgram(editor: EditorView, source: string) {
  editor.dispatch({
    changes: { from: 0, to: editor.state.doc.length, insert: source },
    userEvent: "input.replace",
  });
}

export function showRunningLine(editor: EditorView, line: number | null) {
  editor.dispatch({ effects: setRunningLine.of(line) });
}

/** A mark on the program: an error (underlined red) or a warning. */
export interface Mark {
  line: number;
  /** 1-based; the whole line when absent. */
  column?: number;
  endLine?: number;
  endColumn?: number;
  severity: "error" | "warning";
  message: string;
}

/** Shows `marks` in the editor (an empty list clears them). */
export function markProgram(editor: EditorView, marks: Mark[]) {
  const doc = editor.state.doc;
  const diagnostics: LintDiagnostic[] = marks.map((m) => {
    const line = doc.line(Math.min(Math.max(m.line, 1), doc.lines));
    let from = m.column ? Math.min(line.from + m.column - 1, line.to) : line.from;
    let to = line.to;
    if (m.endLine && m.endColumn && m.endLine <= doc.lines) {
      const end = doc.line(Math.max(m.endLine, 1));
      to = Math.min(end.from + m.endColumn - 1, end.to);
    }
    // An error past the line's end (a missing bracket) still gets a mark.
    if (to <= from) {
      to = Math.min(from + 1, doc.length);
      if (to <= from) from = Math.max(from - 1, 0);
    }
    return { from, to, severity: m.severity, message: m.message };
  });
  editor.dispatch(setDiagnostics(editor.state, diagnostics));
}

export function jumpTo(editor: EditorView, line: number, column: number) {
  const doc = editor.state.doc;
  const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
  const pos = Math.min(l.from + Math.max(column - 1, 0), l.to);
  editor.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
  editor.focus();
}

/** The keys the page and its editor answer to, for the keyboard help panel. */
export const SHORTCUTS: [string, string][] = [
  ["Ctrl/Cmd+Enter", "run the program"],
  ["Escape", "stop the running program"],
  ["Tab / Shift+Tab", "indent / dedent the line or selection (4 spaces)"],
  ["Escape, then Tab", "move focus out of the editor (Tab indents inside it)"],
  ["Ctrl/Cmd+Z", "undo (also brings back the draft an example or share link replaced)"],
  ["Ctrl/Cmd+Shift+Z or Ctrl+Y", "redo"],
  ["Ctrl/Cmd+/", "comment or uncomment the line"],
  ["Ctrl/Cmd+F", "find and replace"],
  ["Ctrl/Cmd+D", "select the next occurrence of the selection"],
  ["Alt+Up / Alt+Down", "move the line up or down"],
  ["Ctrl/Cmd+Space", "complete a name"],
];
